#!/usr/bin/env node
// Interleaved A/B of two gateway builds: both run at once against one simulator, next to the floor
// and the simulator itself, and blocks of sequential requests go to each in turn (a new order every
// round). Machine drift (a noisy neighbour, frequency changes) then hits every target alike, which
// single runs one after another cannot promise on a shared machine.
//
// Per target: CPU per request (all threads, from /proc/<pid>/task/*/schedstat, nanoseconds) and the
// client's p50/p90 time, with the added p50 against the simulator. Made for "did this change make
// the request path cheaper": measure a copy of dist/ from before the change against dist/ after it.
//
//   cp -r apps/gateway/dist apps/gateway/dist-base     # before the change (dist-*/ is ignored)
//   …change, pnpm --filter @modelgate/gateway build…
//   node bench/ab.mjs --a apps/gateway/dist-base/main.js            # B defaults to dist/main.js
//   node bench/ab.mjs --a … --stream --db pglite --rounds 200 --block 25
//   node bench/ab.mjs --a … --stream --tokens 32 --tokens-per-second 1000   # CPU of relaying
//   node bench/ab.mjs --a … --b-args=--liftoff-only --concurrency 16   # same build, a node flag, under load
//   node bench/ab.mjs --a … --node 24                    # every process on Node 24 (lib/runtime.mjs)
//
// Results go to stdout only: this is a tool for a change's author, not a scenario of `pnpm bench`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { poolFor, shuffled, timeRequest, warmUp } from './lib/measure.mjs';
import { cpuPlan, pinSelf, stop } from './lib/processes.mjs';
import { continueOnNode } from './lib/runtime.mjs';
import { percentile } from './lib/stats.mjs';
import {
  chatBody,
  repoDir,
  scratchDir,
  startSim,
  startTarget,
  stopTarget,
} from './lib/targets.mjs';
import { SIM_OVERHEAD } from './scenarios/overhead.mjs';

const { values: opts } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: path.join(repoDir, 'apps/gateway/dist/main.js') },
    db: { type: 'string', default: 'pg' },
    stream: { type: 'boolean', default: false },
    // Tokens per answer (the simulator's and max_tokens): 1 weighs opening a request, 64 relaying.
    tokens: { type: 'string', default: String(SIM_OVERHEAD.outputTokens) },
    // 0: the answer comes at once (few packets); e.g. 1000: one packet per token, as a live model.
    'tokens-per-second': { type: 'string', default: '0' },
    rounds: { type: 'string', default: '100' },
    block: { type: 'string', default: '25' },
    warmup: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '1' },
    'a-args': { type: 'string', default: '' },
    'b-args': { type: 'string', default: '' },
    node: { type: 'string' },
  },
});
continueOnNode(opts.node);
if (!opts.a) {
  console.error('usage: node bench/ab.mjs --a <gateway main.js> [--b <main.js>] [--stream]');
  process.exit(2);
}

/** CPU time of every thread of a process so far, in nanoseconds (schedstat's first field). */
function cpuNs(pid) {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {} // a thread that ended between the listing and the read
  }
  return total;
}

const kind = opts.db === 'pglite' ? 'modelgate' : 'modelgate-pg';
const cpus = cpuPlan(true);
pinSelf(cpus.other); // the client must not share the servers' core
const scratch = scratchDir();
const tokens = Number(opts.tokens);
const sim = await startSim(
  { ...SIM_OVERHEAD, outputTokens: tokens, tokensPerSecond: Number(opts['tokens-per-second']) },
  { cpu: cpus.other },
);
const targets = [];
try {
  const specs = [
    { label: 'direct', name: 'direct' },
    { label: 'floor', name: 'floor' },
    { label: 'A', name: kind, main: path.resolve(opts.a), args: opts['a-args'] },
    { label: 'B', name: kind, main: path.resolve(opts.b), args: opts['b-args'] },
  ];
  for (const spec of specs) {
    const target = await startTarget(spec.name, sim.url, {
      cpu: cpus.server,
      scratch,
      main: spec.main,
      label: spec.label,
      nodeArgs: (spec.args ?? '').split(' ').filter(Boolean),
    });
    targets.push({
      ...target,
      label: spec.label,
      pool: poolFor(target.url),
      ms: [],
      cpu: [],
      roundP50: [],
    });
  }
  const body = chatBody({ stream: opts.stream, maxTokens: tokens });
  for (const target of targets) {
    await warmUp(target, [body], { count: Number(opts.warmup) });
  }
  const block = Number(opts.block);
  const concurrency = Number(opts.concurrency);
  if (concurrency > 1) {
    for (const t of targets) {
      t.loadPool = new Pool(new URL(t.url).origin, { connections: concurrency, pipelining: 1 });
    }
  }
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const target of shuffled(targets)) {
      const before = target.pid ? cpuNs(target.pid) : 0;
      const times = [];
      // With --concurrency N, N clients send `block` requests each, at once: CPU per request under
      // load (a CPU-bound server's capacity is its inverse), latency then includes queueing.
      const client = async () => {
        for (let i = 0; i < block; i++) {
          const timed = await timeRequest(target.loadPool ?? target.pool, target, body, {
            stream: opts.stream,
          });
          times.push(opts.stream ? timed.ttftMs : timed.totalMs);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      target.ms.push(...times);
      target.roundP50.push(percentile(times, 50));
      if (target.pid) target.cpu.push((cpuNs(target.pid) - before) / times.length / 1000);
    }
  }
  const direct = percentile(targets[0].ms, 50);
  const rows = targets.map((t) => {
    const p50 = percentile(t.ms, 50);
    return {
      target: t.label,
      'cpu µs/req (median round)': t.cpu.length ? Math.round(percentile(t.cpu, 50)) : '',
      'p50 ms': p50.toFixed(3),
      'p90 ms': percentile(t.ms, 90).toFixed(3),
      'added p50 ms': (p50 - direct).toFixed(3),
    };
  });
  console.log(
    `${opts.stream ? 'streamed (time to first token)' : 'plain'} chat, ${kind}, ${concurrency} at a time`,
  );
  console.table(rows);
  const [floor, a, b] = rows.slice(1).map((r) => Number(r['added p50 ms']));
  // Paired per round: each round's B against the same round's A, so drift between rounds cancels.
  const [, , A, B] = targets;
  const paired = (xs, ys, f) =>
    percentile(
      xs.map((x, i) => f(x, ys[i])),
      50,
    );
  const cpuRatio = paired(A.cpu, B.cpu, (x, y) => y / x);
  const p50Diff = paired(A.roundP50, B.roundP50, (x, y) => (y - x) * 1000);
  console.log(
    `B vs A, median of per-round pairs: cpu ${cpuRatio.toFixed(3)}×, p50 ${p50Diff >= 0 ? '+' : ''}${p50Diff.toFixed(0)} µs`,
  );
  console.log(`added p50 vs floor: A ${(a / floor).toFixed(2)}×  B ${(b / floor).toFixed(2)}×`);
  for (const t of targets) {
    await t.pool.close();
    await t.loadPool?.close();
  }
} finally {
  for (const target of targets) await stopTarget(target);
  await stop(sim);
}

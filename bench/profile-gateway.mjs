#!/usr/bin/env node
// Profiles a target under load: starts the simulator and the target with `node --cpu-prof`,
// drives it with autocannon (own process), stops it (SIGTERM writes the profile), and prints where
// the CPU time went: by module (the target's own code, each package, node's internals by
// subsystem, V8 builtins, GC), by package/file, and by function (self time).
//   node bench/profile-gateway.mjs [--target=modelgate|modelgate-pg|portkey|floor] [--db=postgres]
//        [--connections=8] [--seconds=10] [--stream] [--json=summary.json]
//        [--node 24]   (every process on Node 24: lib/runtime.mjs)
// Saturation as `pnpm bench` measures it: --connections=64. A profile is a proportion of the
// target's CPU time, so it stays comparable across runs on a shared machine; its req/s does not.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { summarizeProfile } from './lib/cpu-profile.mjs';
import { cpuPlan, runWorker, stopAll } from './lib/processes.mjs';
import { continueOnNode } from './lib/runtime.mjs';
import {
  benchDir,
  chatBody,
  scratchDir,
  startSim,
  startTarget,
  stopTarget,
} from './lib/targets.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    target: { type: 'string' },
    json: { type: 'string' },
    connections: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    stream: { type: 'boolean', default: false },
    top: { type: 'string', default: '30' },
    node: { type: 'string' },
  },
});
continueOnNode(values.node);

const targetName = values.target ?? (values.db === 'postgres' ? 'modelgate-pg' : 'modelgate');
const scratch = scratchDir();
const cpus = cpuPlan(true);
const sim = await startSim({ latencyMs: 5, ttftMs: 5, outputTokens: 16 }, { cpu: cpus.other });
let target;
let load;
let window = null;
try {
  const spawnedAt = performance.now();
  const profileArgs = ['--cpu-prof', `--cpu-prof-dir=${scratch}`];
  // modelgate drains and exits on SIGTERM itself; the others need the preload to write a profile.
  if (!targetName.startsWith('modelgate'))
    profileArgs.push('--import', path.join(benchDir, 'servers/exit-on-sigterm.mjs'));
  target = await startTarget(targetName, sim.url, {
    cpu: cpus.server,
    scratch,
    nodeArgs: profileArgs,
  });
  const job = {
    url: target.url,
    headers: target.headers,
    body: chatBody({ stream: values.stream }),
    connections: Number(values.connections),
    durationS: Number(values.seconds),
    warmupS: 1,
  };
  const loadAt = performance.now();
  const out = await runWorker({
    name: 'profile load',
    args: [path.join(benchDir, 'workers/load-client.mjs'), JSON.stringify(job)],
    cpu: cpus.other,
    timeoutMs: (job.durationS + 30) * 1000,
  });
  // The profile starts when the target's process does: keep the measured seconds (after the
  // load's warm-up, before its end), a little inside on both sides.
  window = {
    fromMs: loadAt - spawnedAt + job.warmupS * 1000 + 200,
    toMs: performance.now() - spawnedAt - 200,
  };
  load = {
    throughput: out.throughput,
    p50: out.latency.p50,
    errors: out.errors + out.non2xx,
  };
  console.log(
    `${targetName} on Node ${process.version}, ${job.connections} connections: ${out.throughput.toFixed(0)} req/s, p50 ${out.latency.p50?.toFixed(2)} ms, errors ${load.errors}`,
  );
} finally {
  await stopTarget(target);
  await stopAll();
}
for (const name of readdirSync(scratch)) {
  if (name.startsWith('pglite-'))
    rmSync(path.join(scratch, name), { recursive: true, force: true });
}
const file = readdirSync(scratch).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${scratch}`);
const summary = summarizeProfile(JSON.parse(readFileSync(path.join(scratch, file), 'utf8')), {
  window,
  top: Number(values.top),
});
console.log(`profile: ${path.join(scratch, file)} (${summary.totalMs.toFixed(0)} ms sampled)`);
if (values.json) {
  const meta = {
    target: targetName,
    node: process.version,
    connections: Number(values.connections),
  };
  writeFileSync(values.json, `${JSON.stringify({ ...meta, load, ...summary }, null, 2)}\n`);
}
console.log('\nself time by module:');
for (const row of summary.byModule)
  console.log(
    `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(6)} ms  ${row.name}`,
  );
console.log('\nself time by package/file:');
for (const row of summary.byFile)
  console.log(
    `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(6)} ms  ${row.name}`,
  );
console.log('\ntime under the innermost gateway function (its own work + what it called):');
for (const row of summary.byGatewayFrame)
  console.log(
    `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(6)} ms  ${row.name}`,
  );
console.log('\nself time by function:');
for (const row of summary.byFunction)
  console.log(
    `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(6)} ms  ${row.name}`,
  );

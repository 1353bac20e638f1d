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
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
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

/**
 * The module a sampled frame belongs to: a package (by its name in node_modules/.pnpm), the
 * gateway's own build, a subsystem of node's internals (`node:http`, `node:streams` …), or V8
 * itself: `(garbage collector)`, `(program)` (VM work not attributed to JavaScript), `(idle)`, and
 * builtins without a script (`V8 builtins`).
 */
export function moduleOf(callFrame) {
  const url = callFrame.url;
  if (!url) {
    return /^\(.*\)$/.test(callFrame.functionName) ? callFrame.functionName : 'V8 builtins';
  }
  const pkg = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(url)?.[1];
  if (pkg) return pkg.replace('+', '/');
  if (url.includes('apps/gateway/dist')) return 'modelgate (apps/gateway/dist)';
  if (url.includes('/bench/')) return `bench (${url.split('/').pop()})`;
  const internal = /^node:(?:internal\/)?(?:deps\/)?([a-z_]+)/.exec(url)?.[1];
  if (internal) {
    const subsystem = internal.replace(/^_/, '').replace(/^http_.*/, 'http');
    return `node:${subsystem}`;
  }
  return url.split('/').slice(-2).join('/');
}

/**
 * Self time per node of a .cpuprofile, grouped by module, by function and by file (package).
 * `window` ({ fromMs, toMs } after the profile's start) keeps only the samples taken under load,
 * leaving out the start (module loading, migrations) and the drain.
 */
export function summarizeProfile(profile, window = null) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += deltas[i] ?? 0;
    if (window && (at < window.fromMs * 1000 || at > window.toMs * 1000)) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  const byModule = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    const module = moduleOf(callFrame);
    byModule.set(module, (byModule.get(module) ?? 0) + micros);
    const file =
      callFrame.url
        .replace(/^file:\/\//, '')
        .replace(/.*node_modules\/\.pnpm\/([^/]+)\/.*/, '$1') ||
      `(${callFrame.functionName || 'native'})`;
    const fn = `${callFrame.functionName || '(anonymous)'} ${file.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
  }
  // Inclusive time by the innermost gateway frame on each sample's stack: which of the gateway's own
  // functions the time (database, JSON, streams …) was spent for. Mapped to src/ via the source map.
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const maps = new Map();
  const original = (callFrame) => {
    const file = callFrame.url.replace(/^file:\/\//, '');
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(
        file,
        existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null,
      );
    }
    const entry = maps.get(file)?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    return entry?.originalSource
      ? `${entry.originalSource.replace(/.*\/src\//, 'src/')}:${entry.originalLine + 1}`
      : `${file.split('/').pop()}:${callFrame.lineNumber + 1}`;
  };
  const byGatewayFrame = new Map();
  for (const [id, micros] of self) {
    let cursor = id;
    while (cursor != null && !byId.get(cursor).callFrame.url.includes('apps/gateway/dist'))
      cursor = parent.get(cursor);
    if (cursor == null) continue;
    const { callFrame } = byId.get(cursor);
    const key = `${callFrame.functionName || '(anonymous)'} ${original(callFrame)}`;
    byGatewayFrame.set(key, (byGatewayFrame.get(key) ?? 0) + micros);
  }
  const top = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: micros / total }));
  return {
    totalMs: total / 1000,
    byModule: top(byModule, 25),
    byFunction: top(byFunction, Number(values.top)),
    byFile: top(byFile, 20),
    byGatewayFrame: top(byGatewayFrame, Number(values.top)),
  };
}

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
const summary = summarizeProfile(
  JSON.parse(readFileSync(path.join(scratch, file), 'utf8')),
  window,
);
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

#!/usr/bin/env node
// Profiles modelgate under load: starts the simulator and the gateway with `node --cpu-prof`,
// drives it with autocannon (own process), stops it (SIGTERM writes the profile), and prints where
// the CPU time went: by function (self time) and by package/file.
//   node bench/profile-gateway.mjs [--db=pglite|postgres] [--connections=8] [--seconds=10] [--stream]
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cpuPlan, runWorker, stopAll } from './lib/processes.mjs';
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
    connections: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    stream: { type: 'boolean', default: false },
    top: { type: 'string', default: '30' },
  },
});

/** Self time per node of a .cpuprofile, grouped by function and by file (package). */
export function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byFile = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
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
    byFunction: top(byFunction, Number(values.top)),
    byFile: top(byFile, 20),
    byGatewayFrame: top(byGatewayFrame, Number(values.top)),
  };
}

const scratch = scratchDir();
const cpus = cpuPlan(true);
const sim = await startSim({ latencyMs: 5, ttftMs: 5, outputTokens: 16 }, { cpu: cpus.other });
let target;
try {
  target = await startTarget(values.db === 'postgres' ? 'modelgate-pg' : 'modelgate', sim.url, {
    cpu: cpus.server,
    scratch,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${scratch}`],
  });
  const job = {
    url: target.url,
    headers: target.headers,
    body: chatBody({ stream: values.stream }),
    connections: Number(values.connections),
    durationS: Number(values.seconds),
    warmupS: 1,
  };
  const out = await runWorker({
    name: 'profile load',
    args: [path.join(benchDir, 'workers/load-client.mjs'), JSON.stringify(job)],
    cpu: cpus.other,
    timeoutMs: (job.durationS + 30) * 1000,
  });
  console.log(
    `load: ${out.throughput.toFixed(0)} req/s, p50 ${out.latency.p50?.toFixed(2)} ms, errors ${out.errors + out.non2xx}`,
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
const summary = summarizeProfile(JSON.parse(readFileSync(path.join(scratch, file), 'utf8')));
console.log(`profile: ${path.join(scratch, file)} (${summary.totalMs.toFixed(0)} ms sampled)`);
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

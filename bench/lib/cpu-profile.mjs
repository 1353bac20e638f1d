// A V8 .cpuprofile (node --cpu-prof) summarised: self time by module, by file, by function, and
// by the innermost gateway function on each sample's stack (mapped to src/ with the source maps).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

/**
 * The module a sampled frame belongs to: a package (by its name in node_modules/.pnpm), the
 * gateway's own build, a subsystem of node's internals (`node:http`, `node:streams` …), or V8
 * itself: `(garbage collector)`, `(program)` (VM work not attributed to JavaScript), `(idle)`, and
 * `native`: functions without a script, V8's builtins and node's C++ bindings (`writev`,
 * `postMessage` …). The profile samples wall time: a thread descheduled inside a native call (a
 * worker thread sharing the core) is counted there.
 */
export function moduleOf(callFrame) {
  const url = callFrame.url;
  if (!url) {
    return /^\(.*\)$/.test(callFrame.functionName) ? callFrame.functionName : 'native';
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
 * leaving out the start (module loading, migrations) and the drain; `top` is how many functions
 * each list keeps.
 */
export function summarizeProfile(profile, { window = null, top: topN = 30 } = {}) {
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
    byFunction: top(byFunction, topN),
    byFile: top(byFile, 20),
    byGatewayFrame: top(byGatewayFrame, topN),
  };
}

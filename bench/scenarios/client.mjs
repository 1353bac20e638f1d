// Scenario 4 — client: (a) bundle size of the same minimal streaming app written with each client
// library (esbuild, browser, minified, then gzip -9); (b) SSE parse throughput of
// @modelgate/stream's parser next to eventsource-parser on one recorded simulator stream.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { stop } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';
import { benchDir, chatBody, startSim, startTarget } from '../lib/targets.mjs';

export const APPS = [
  { name: '@modelgate/core + stream', file: 'client-apps/modelgate.mjs', key: 'modelgate' },
  { name: 'openai', file: 'client-apps/openai.mjs', key: 'openai' },
  { name: 'ai + @ai-sdk/openai', file: 'client-apps/ai-sdk.mjs', key: 'ai' },
];

function versionOf(pkg) {
  try {
    return JSON.parse(
      readFileSync(path.join(benchDir, 'node_modules', pkg, 'package.json'), 'utf8'),
    ).version;
  } catch {
    return null;
  }
}

/**
 * Builds each app as a browser bundler would ship it: ESM with code splitting, so a lazily
 * `import()`ed module (e.g. zod for optional response validation) becomes its own chunk that is
 * only fetched when used. `initial` is what loading the app downloads (the entry and the chunks
 * it imports statically); `total` adds the lazy chunks. Each file is gzipped on its own.
 */
export async function bundleSizes() {
  const out = {};
  for (const app of APPS) {
    try {
      const result = await build({
        entryPoints: [path.join(benchDir, app.file)],
        absWorkingDir: benchDir,
        bundle: true,
        splitting: true,
        outdir: path.join(benchDir, 'results', '.bundle-tmp'),
        minify: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
        metafile: true,
      });
      const files = new Map(
        result.outputFiles.map((file) => [path.relative(benchDir, file.path), file.contents]),
      );
      const outputs = result.metafile.outputs;
      const entry = Object.keys(outputs).find((name) => outputs[name].entryPoint);
      const initial = new Set();
      const visit = (name) => {
        if (initial.has(name)) return;
        initial.add(name);
        for (const imported of outputs[name].imports) {
          if (imported.kind === 'import-statement' && outputs[imported.path]) visit(imported.path);
        }
      };
      visit(entry);
      const size = (names) => {
        let minified = 0;
        let gzip = 0;
        for (const name of names) {
          const code = files.get(name);
          if (!code) continue;
          minified += code.byteLength;
          gzip += gzipSync(code, { level: 9 }).byteLength;
        }
        return { minified, gzip };
      };
      const js = [...files.keys()].filter((name) => name.endsWith('.js'));
      const first = size(initial);
      const all = size(js);
      out[app.key] = {
        name: app.name,
        minifiedBytes: first.minified,
        gzipBytes: first.gzip,
        totalMinifiedBytes: all.minified,
        totalGzipBytes: all.gzip,
        chunks: js.length,
        inputs: Object.keys(result.metafile.inputs).length,
      };
    } catch (error) {
      out[app.key] = { name: app.name, error: String(error.message ?? error).slice(0, 2000) };
    }
  }
  out.versions = {
    openai: versionOf('openai'),
    ai: versionOf('ai'),
    '@ai-sdk/openai': versionOf('@ai-sdk/openai'),
    esbuild: versionOf('esbuild'),
  };
  return out;
}

/** One long chat stream, as the simulator sends it (usage included), recorded once. */
async function recordStream(ctx) {
  const sim = await startSim(
    { outputTokens: 2000, tokensPerSecond: 0, ttftMs: 0 },
    { name: 'sim-record' },
  );
  try {
    const direct = await startTarget('direct', sim.url, { scratch: ctx.scratch });
    const body = JSON.parse(chatBody({ stream: true, maxTokens: 2000 }));
    body.stream_options = { include_usage: true };
    const res = await fetch(direct.url, {
      method: 'POST',
      headers: direct.headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`recording failed: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  } finally {
    await stop(sim);
  }
}

/** Network-like pieces: deterministic sizes between 1 byte and 4 KiB, the same for every parser. */
function split(bytes, totalBytes) {
  const pieces = [];
  let seed = 42;
  let produced = 0;
  while (produced < totalBytes) {
    for (let offset = 0; offset < bytes.length && produced < totalBytes; ) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const size = 1 + (seed % 4096);
      const piece = bytes.subarray(offset, offset + size);
      pieces.push(piece);
      offset += piece.length;
      produced += piece.length;
    }
  }
  return { pieces, bytes: produced };
}

/** Parser adapters: each consumes the pieces and returns how many events it produced. */
async function parsers() {
  const { createParser } = await import('eventsource-parser');
  const list = [
    {
      name: 'eventsource-parser',
      parse(strings) {
        let events = 0;
        const parser = createParser({ onEvent: () => events++ });
        for (const s of strings) parser.feed(s);
        return events;
      },
    },
  ];
  try {
    const { SseParser } = await import('@modelgate/stream');
    list.unshift({
      name: '@modelgate/stream',
      parse(strings) {
        let events = 0;
        const parser = new SseParser({ onEvent: () => events++ });
        for (const s of strings) parser.feed(s);
        parser.end();
        return events;
      },
    });
  } catch (error) {
    list.unavailable = String(error.message ?? error);
  }
  return list;
}

export async function parseThroughput(ctx) {
  const recorded = await recordStream(ctx);
  const { pieces, bytes } = split(recorded, ctx.quick ? 4 * 2 ** 20 : 16 * 2 ** 20);
  const decoder = new TextDecoder();
  const strings = pieces.map((piece) => decoder.decode(piece, { stream: true }));
  const list = await parsers();
  const runs = ctx.quick ? 3 : 7;
  const speeds = Object.fromEntries(list.map((p) => [p.name, []]));
  const events = {};
  for (const p of list) events[p.name] = p.parse(strings.slice(0, 1000)); // warm-up
  for (let r = 0; r < runs; r++) {
    for (const p of r % 2 ? [...list].reverse() : list) {
      const t0 = performance.now();
      events[p.name] = p.parse(strings);
      const s = (performance.now() - t0) / 1000;
      speeds[p.name].push(bytes / 2 ** 20 / s);
    }
  }
  const result = {
    recordedBytes: recorded.length,
    totalBytes: bytes,
    pieces: pieces.length,
    runs,
    parsers: {},
  };
  for (const p of list) {
    result.parsers[p.name] = {
      mbPerS: median(speeds[p.name]),
      runsMbPerS: speeds[p.name],
      events: events[p.name],
    };
  }
  if (list.unavailable) result.unavailable = { '@modelgate/stream': list.unavailable };
  return result;
}

export async function run(ctx) {
  const bundles = await bundleSizes();
  for (const [key, b] of Object.entries(bundles)) {
    if (key !== 'versions')
      ctx.log(
        `bundle ${b.name}: ${b.error ? `error ${b.error.split('\n')[0]}` : `${(b.gzipBytes / 1024).toFixed(1)} KiB gzip`}`,
      );
  }
  const parse = await parseThroughput(ctx);
  for (const [name, p] of Object.entries(parse.parsers)) {
    ctx.log(`parse ${name}: ${p.mbPerS.toFixed(1)} MB/s (${p.events} events)`);
  }
  return { bundles, parse };
}

// SSE parsing on the gateway's relay workload: many small upstream chunks of one to three events,
// OpenAI-style (`data: {...}\n\n`) and Anthropic-style (`event: x\ndata: {...}\n\n`). Compares
// `@modelgate/core/sse` with `raw: true` (what the relay needs: the event's bytes to forward) to a
// baseline parser with the `push(text) → events` shape, by default the gateway's own
// (apps/gateway/src/translate/sse.ts, compiled with esbuild). Also reports core without `raw`, the
// cost of keeping the raw text.
//
// Interleaved: every round runs each parser once over the same chunks, in a rotating order, and
// the ratio of the two times is taken per round, so machine drift hits both alike. The figure is
// the median of those ratios (> 1: core is slower).
//
//   pnpm --filter @modelgate/core build
//   node bench/scenarios/sse-relay.mjs [--rounds 41] [--chunks 40000] [--baseline path/to/sse.ts]
//
// Results go to stdout only: a tool for whoever changes the parser, not a scenario of `pnpm bench`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { median } from '../lib/stats.mjs';
import { repoDir } from '../lib/targets.mjs';

const DEFAULT_BASELINE = path.join(repoDir, 'apps/gateway/src/translate/sse.ts');

/** Deterministic PRNG (mulberry32): the same chunks on every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['Hello', ' world', ',', ' the', ' answer', ' is', ' 42', '.', ' é', ' 👋', '\\n'];

function openAiEvent(rand, i) {
  const text = WORDS[Math.floor(rand() * WORDS.length)];
  return `data: {"id":"chatcmpl-9x${i % 97}","object":"chat.completion.chunk","created":1726012687,"model":"gpt-4o-mini","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"content":"${text}"},"logprobs":null,"finish_reason":null}]}\n\n`;
}

function anthropicEvent(rand) {
  const text = WORDS[Math.floor(rand() * WORDS.length)];
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}\n\n`;
}

/**
 * `count` chunks of one to three whole events (half of them one), decoded from bytes as the
 * gateway decodes them, so every string is flat like a real chunk's.
 */
export function relayChunks(style, count, seed = 7) {
  const rand = prng(seed);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const chunks = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const events = rand() < 0.5 ? 1 : 2 + Math.floor(rand() * 2);
    let text = '';
    for (let e = 0; e < events; e++) {
      text += style === 'openai' ? openAiEvent(rand, i) : anthropicEvent(rand);
    }
    const encoded = encoder.encode(text);
    bytes += encoded.length;
    chunks.push(decoder.decode(encoded));
  }
  return { chunks, bytes };
}

/** Compiles a TypeScript parser module (no imports of its own) and loads it. */
async function loadTs(file) {
  const out = await build({
    entryPoints: [file],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/**
 * The parsers, each a function of the chunks that returns a checksum of what it gave (the lengths
 * of every event's data and raw text), so no work can be skipped and the outputs can be compared.
 */
async function parsers(baselineFile) {
  const { SseParser: CoreParser } = await import('@modelgate/core/sse');
  const list = {
    'core, raw': (chunks) => {
      let sum = 0;
      const parser = new CoreParser({
        raw: true,
        onEvent: (e) => {
          sum += e.data.length + e.raw.length;
        },
      });
      for (const chunk of chunks) parser.feed(chunk);
      parser.end();
      return sum;
    },
    'core, no raw': (chunks) => {
      let sum = 0;
      const parser = new CoreParser({
        onEvent: (e) => {
          sum += e.data.length;
        },
      });
      for (const chunk of chunks) parser.feed(chunk);
      parser.end();
      return sum;
    },
  };
  if (existsSync(baselineFile)) {
    const { SseParser: BaselineParser } = await loadTs(baselineFile);
    list.baseline = (chunks) => {
      let sum = 0;
      const parser = new BaselineParser();
      for (const chunk of chunks) {
        for (const e of parser.push(chunk)) sum += e.data.length + e.raw.length;
      }
      for (const e of parser.flush()) sum += e.data.length + e.raw.length;
      return sum;
    };
  }
  return list;
}

/** Times every parser once per round in a rotating order; per-round ratios against `reference`. */
function interleave(list, chunks, rounds, reference) {
  const names = Object.keys(list);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = -3; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r + 3) % names.length]);
    for (const name of order) {
      const t0 = performance.now();
      list[name](chunks);
      const ms = performance.now() - t0;
      if (r >= 0) times[name].push(ms); // the first three rounds warm the JIT up
    }
  }
  const result = {};
  for (const name of names) {
    const ratios = times[name].map((ms, i) => ms / times[reference][i]);
    result[name] = { medianMs: median(times[name]), medianRatio: median(ratios) };
  }
  return result;
}

/**
 * @example
 * ```js
 * const { openai } = await run({ log: console.log, rounds: 41, chunks: 40_000 });
 * openai.parsers['core, raw'].medianRatio; // core's time / the baseline's, per round, median
 * ```
 */
export async function run(ctx) {
  const list = await parsers(ctx.baseline ?? DEFAULT_BASELINE);
  const reference = list.baseline ? 'baseline' : 'core, raw';
  if (!list.baseline) ctx.log(`no baseline parser at ${ctx.baseline ?? DEFAULT_BASELINE}`);
  const out = {};
  for (const style of ['openai', 'anthropic']) {
    const { chunks, bytes } = relayChunks(style, ctx.chunks);
    const sums = Object.fromEntries(Object.entries(list).map(([n, parse]) => [n, parse(chunks)]));
    if (list.baseline && sums['core, raw'] !== sums.baseline) {
      throw new Error(`${style}: core and the baseline disagree (${JSON.stringify(sums)})`);
    }
    const parsed = interleave(list, chunks, ctx.rounds, reference);
    out[style] = { chunks: chunks.length, bytes, rounds: ctx.rounds, parsers: parsed };
    for (const [name, p] of Object.entries(parsed)) {
      const mbPerS = bytes / 2 ** 20 / (p.medianMs / 1000);
      ctx.log(
        `${style} ${name}: ${p.medianMs.toFixed(2)} ms (${mbPerS.toFixed(0)} MB/s), ` +
          `×${p.medianRatio.toFixed(3)} ${reference}`,
      );
    }
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '41' },
      chunks: { type: 'string', default: '40000' },
      baseline: { type: 'string' },
    },
  });
  await run({
    log: (msg) => console.log(msg),
    rounds: Number(values.rounds),
    chunks: Number(values.chunks),
    baseline: values.baseline && path.resolve(values.baseline),
  });
}

// The vectors a simulated embedding model answers: deterministic per input, different between
// inputs, and alike where inputs share words — each word has a fixed random direction (per
// model), a text is the sum of its words' directions plus a little of its own, scaled to unit
// length. So "a red fox" is nearer "the red fox jumps" than "quarterly tax filing", as a real
// model's would be, and retrieval demos behave.
import { hashString } from '../text/generate.js';

const MAX_CACHED_WORDS = 4096;
const wordVectors = new Map<string, Float32Array>();

/** mulberry32: a small, good 32-bit PRNG. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A direction: `dims` standard normal values (Box–Muller) from a seed. */
function direction(seed: number, dims: number): Float32Array {
  const next = random(seed);
  const out = new Float32Array(dims);
  for (let i = 0; i < dims; i += 2) {
    const r = Math.sqrt(-2 * Math.log(next() || Number.MIN_VALUE));
    const theta = 2 * Math.PI * next();
    out[i] = r * Math.cos(theta);
    if (i + 1 < dims) out[i + 1] = r * Math.sin(theta);
  }
  return out;
}

function wordVector(model: string, word: string, dims: number): Float32Array {
  const key = `${model}\u0000${dims}\u0000${word}`;
  let vector = wordVectors.get(key);
  if (!vector) {
    vector = direction(hashString(key), dims);
    if (wordVectors.size >= MAX_CACHED_WORDS)
      wordVectors.delete(wordVectors.keys().next().value as string);
    wordVectors.set(key, vector);
  }
  return vector;
}

/** Scales to unit length in place. */
export function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/**
 * The model's full-length, unit-length vector for an input (a text, or token ids).
 *
 * @example
 * embed('text-embedding-3-small', 'a red fox', 1536).length; // 1536
 */
export function embed(
  model: string,
  input: string | readonly number[],
  dims: number,
): Float32Array {
  const words =
    typeof input === 'string'
      ? input
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean)
      : input.map(String);
  const whole = typeof input === 'string' ? input : input.join(' ');
  const out = direction(hashString(`${model}\u0000${whole}`), dims);
  for (let i = 0; i < dims; i++) out[i] = out[i]! * 0.3;
  for (const word of words) {
    const vector = wordVector(model, word, dims);
    for (let i = 0; i < dims; i++) out[i] = out[i]! + vector[i]!;
  }
  return unit(out);
}

/** The vector's float32 values, little-endian, base64-encoded (OpenAI's `encoding_format: base64`). */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

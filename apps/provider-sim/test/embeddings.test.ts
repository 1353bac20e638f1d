// OpenAI's /embeddings and Gemini's embedContent / batchEmbedContents in the simulator: vectors
// deterministic per input, different between inputs (alike where words are shared), `dimensions`
// honoured (unit length on OpenAI; Gemini's shortened vectors left unscaled, as Google documents),
// base64 as little-endian float32, and each API's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { postJson } from './helpers.js';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('embeddings', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  const openai = (body: unknown) =>
    postJson(`${sim.url}/openai/v1/embeddings`, body, { authorization: 'Bearer sk-x' });
  const gemini = (model: string, op: string, body: unknown) =>
    postJson(`${sim.url}/gemini/v1beta/models/${model}:${op}`, body, { 'x-goog-api-key': 'k' });

  it('OpenAI: deterministic unit vectors, alike where words are shared, with usage', async () => {
    const res = await openai({
      model: 'text-embedding-3-small',
      input: ['a red fox', 'the red fox jumps', 'tax filing', 'a red fox'],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const [a, b, c, d] = body.data.map((e: { embedding: number[] }) => e.embedding);
    expect(a).toHaveLength(1536);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(d).toEqual(a);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
    expect(body.usage.prompt_tokens).toBeGreaterThan(4);
    expect(body).toMatchObject({ object: 'list', model: 'text-embedding-3-small' });
  });

  it('OpenAI: dimensions cut and rescaled; base64 of float32; ada-002 refuses dimensions', async () => {
    const short = await (
      await openai({ model: 'text-embedding-3-large', input: 'hi', dimensions: 8 })
    ).json();
    const vector = short.data[0].embedding as number[];
    expect(vector).toHaveLength(8);
    expect(norm(vector)).toBeCloseTo(1, 5);
    const b64 = await (
      await openai({
        model: 'text-embedding-3-large',
        input: 'hi',
        dimensions: 8,
        encoding_format: 'base64',
      })
    ).json();
    const bytes = Buffer.from(b64.data[0].embedding, 'base64');
    expect(bytes.length).toBe(32);
    expect(bytes.readFloatLE(4)).toBeCloseTo(vector[1]!, 6);
    const ada = await openai({ model: 'text-embedding-ada-002', input: 'hi', dimensions: 8 });
    expect(ada.status).toBe(400);
    expect((await ada.json()).error.message).toBe(
      'This model does not support specifying dimensions.',
    );
    expect((await openai({ model: 'text-embedding-3-small', input: '' })).status).toBe(400);
    expect((await openai({ model: 'gpt-4o', input: 'x' })).status).toBe(404);
  });

  it('Gemini: batchEmbedContents, one vector per request; shortened vectors are not rescaled', async () => {
    const requests = ['a red fox', 'a blue whale'].map((text) => ({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text }] },
      outputDimensionality: 768,
    }));
    const res = await gemini('gemini-embedding-001', 'batchEmbedContents', { requests });
    expect(res.status).toBe(200);
    const { embeddings } = await res.json();
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0].values).toHaveLength(768);
    expect(norm(embeddings[0].values)).toBeLessThan(0.99);
    const full = await (
      await gemini('gemini-embedding-001', 'embedContent', {
        content: { parts: [{ text: 'a red fox' }] },
      })
    ).json();
    expect(norm(full.embedding.values)).toBeCloseTo(1, 5);
    expect(full.embedding.values.slice(0, 768)).toEqual(embeddings[0].values);
    const mismatch = await gemini('gemini-embedding-001', 'batchEmbedContents', {
      requests: [{ ...requests[0], model: 'models/other' }],
    });
    expect(mismatch.status).toBe(400);
    const tooMany = await gemini('gemini-embedding-001', 'batchEmbedContents', {
      requests: Array.from({ length: 101 }, () => requests[0]),
    });
    expect(tooMany.status).toBe(400);
  });
});

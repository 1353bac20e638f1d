/**
 * Embeddings through real clients at their newest versions (Node 24), unchanged, against a gateway
 * started as `pnpm start` starts it: the `openai` client's `embeddings.create` (one input and
 * several, float, base64 — its default, decoded by the client — and dimensions), and the AI SDK's
 * `embed` / `embedMany` (`ai` + `@ai-sdk/openai`).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { cosineSimilarity, embed, embedMany } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const norm = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe(`embeddings on Node ${process.versions.node}`, () => {
  let gw: StartedGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startGateway();
    ({ key } = await gw.createKey({ quota: 10_000_000 }));
  });
  afterAll(() => gw?.close());

  it('openai embeddings.create: one input, float', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const one = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'The quick brown fox',
      encoding_format: 'float',
    });
    expect(one.data).toHaveLength(1);
    expect(one.data[0]!.embedding).toHaveLength(1536);
    expect(norm(one.data[0]!.embedding)).toBeCloseTo(1, 5);
    expect(one.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('openai embeddings.create: several inputs, base64 (decoded by the client), dimensions', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const several = await client.embeddings.create({
      model: 'text-embedding-3-large',
      input: ['a red fox', 'a red fox', 'quarterly tax filing'],
      dimensions: 256,
    });
    const [a, b, c] = several.data.map((d) => d.embedding);
    expect(a).toHaveLength(256);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const raw = await client.embeddings.create({
      model: 'text-embedding-3-large',
      input: 'a red fox',
      dimensions: 256,
      encoding_format: 'base64',
    });
    const bytes = Buffer.from(raw.data[0]!.embedding, 'base64');
    expect(bytes.length).toBe(256 * 4);
    expect(bytes.readFloatLE(0)).toBeCloseTo(a![0]!, 6);
  });

  it('the AI SDK: embed and embedMany, with dimensions, on OpenAI and Gemini models', async () => {
    const provider = createOpenAI({ apiKey: key, baseURL: `${gw.url}/v1` });
    const single = await embed({
      model: provider.embedding('text-embedding-3-small'),
      value: 'a red fox',
    });
    expect(single.embedding).toHaveLength(1536);
    expect(single.usage.tokens).toBeGreaterThan(0);
    const many = await embedMany({
      model: provider.embedding('gemini-embedding-001'),
      values: ['a red fox in the snow', 'the red fox jumps', 'quarterly tax filing'],
      dimensions: 768,
    });
    expect(many.embeddings).toHaveLength(3);
    for (const vector of many.embeddings) {
      expect(vector).toHaveLength(768);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    const [fox, jumps, tax] = many.embeddings;
    expect(cosineSimilarity(fox!, jumps!)).toBeGreaterThan(cosineSimilarity(fox!, tax!));
    expect(many.usage.tokens).toBeGreaterThan(0);
  });
});

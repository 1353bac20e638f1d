/**
 * POST /v1/embeddings through the official `openai` client (6.x, unchanged) and over plain HTTP,
 * against a demo-mode gateway (the simulator upstream: OpenAI's /embeddings and Gemini's
 * batchEmbedContents): one input and several, float and base64, `dimensions`, token ids; every
 * vector of unit length, the same input the same vector; billed per input token through the text
 * path's reserve-then-settle (usage rows of kind embedding, the ledger's difference 0), counted
 * against tpm; refusals and upstream failures cost nothing — on PGlite and on PostgreSQL.
 */
import { zCreditSummary, zEmbeddingList, zModelList, zUsageRecordList } from '@modelgate/core/zod';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/billing/ledger-check.js';
import { expectError, expectOk, type Json } from '../contract/support.js';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

const OP = 'POST /v1/embeddings';

const norm = (v: readonly number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cosine = (a: readonly number[], b: readonly number[]) =>
  a.reduce((s, x, i) => s + x * b[i]!, 0) / (norm(a) * norm(b));

describe.each(eachDatabase())('embeddings on $name', (database) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
  });
  afterEach(() => gw.simulator?.faults.clear());
  afterAll(() => gw?.close());

  const client = (key: string) =>
    new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const post = (key: string, json: Json) =>
    gw.fetch('/v1/embeddings', { method: 'POST', key, json });

  async function usedUnits(key: string): Promise<number> {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
  }

  async function records(key: string): Promise<Json[]> {
    await gw.services.billing.flushSettlements();
    const res = await gw.fetch('/v1/usage/records?kind=embedding', { key });
    return zUsageRecordList.parse(await res.json()).data;
  }

  async function ledgerDifference(keyId: number): Promise<number> {
    await gw.services.billing.returnIdleLeases();
    return (await checkLedger(gw.services.db)).find((r) => r.keyId === keyId)!.difference;
  }

  it('lists the embedding models with their dimensions, limits and prices', async () => {
    const { key } = await gw.createKey();
    const list = zModelList.parse(await (await gw.fetch('/v1/models', { key })).json());
    const models = list.data.filter((m) => m.type === 'embedding');
    expect(models.map((m) => m.id).sort()).toEqual([
      'gemini-embedding-001',
      'text-embedding-3-large',
      'text-embedding-3-small',
      'text-embedding-ada-002',
    ]);
    expect(models.find((m) => m.id === 'text-embedding-3-small')!.embedding).toEqual({
      dimensions: 1536,
      dimensions_range: { min: 1, max: 1536 },
      max_inputs: 2048,
      max_input_tokens: 8191,
      token_input: true,
      price_per_million_tokens: 0.02,
    });
    expect(list.data.filter((m) => m.type === 'text').map((m) => m.id)).not.toContain(
      'text-embedding-3-small',
    );
  });

  it('embeddings.create: one input, float; the same input, the same vector; billed per token', async () => {
    const { key, id } = await gw.createKey({ quota: 10_000_000 });
    const openai = client(key);
    const one = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'The quick brown fox',
      encoding_format: 'float',
    });
    expect(one.object).toBe('list');
    expect(one.model).toBe('text-embedding-3-small');
    const vector = one.data[0]!.embedding;
    expect(vector).toHaveLength(1536);
    expect(norm(vector)).toBeCloseTo(1, 5);
    const again = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'The quick brown fox',
    });
    // The client asked for base64 this time: the same float32 values.
    expect(Float32Array.from(again.data[0]!.embedding)).toEqual(Float32Array.from(vector));
    const tokens = one.usage.prompt_tokens;
    expect(tokens).toBeGreaterThan(0);
    // 0.02 credits per million tokens = 0.02 units a token, rounded up per request.
    expect(await usedUnits(key)).toBe(2 * Math.ceil(tokens * 0.02));
    const rows = await records(key);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      kind: 'embedding',
      model: 'text-embedding-3-small',
      input_tokens: tokens,
      output_tokens: 0,
    });
    expect(await ledgerDifference(id)).toBe(0);
  });

  it('several inputs, base64 (the client’s default) and dimensions: unit vectors, in order, alike where the words are', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const inputs = ['a red fox in the snow', 'the red fox jumps', 'quarterly tax filing deadline'];
    const answer = await client(key).embeddings.create({
      model: 'text-embedding-3-large',
      input: inputs,
      dimensions: 256,
    });
    expect(answer.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const [fox, jumps, tax] = answer.data.map((d) => d.embedding);
    for (const v of [fox!, jumps!, tax!]) {
      expect(v).toHaveLength(256);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(cosine(fox!, jumps!)).toBeGreaterThan(cosine(fox!, tax!) + 0.2);
    // The same request as raw base64: little-endian float32 of the same values.
    const raw = await post(key, {
      model: 'text-embedding-3-large',
      input: inputs,
      dimensions: 256,
      encoding_format: 'base64',
    });
    const body = await expectOk(raw, OP, zEmbeddingList);
    const bytes = Buffer.from(body.data[2]!.embedding as string, 'base64');
    expect(bytes.length).toBe(256 * 4);
    expect(bytes.readFloatLE(0)).toBeCloseTo(tax![0]!, 6);
  });

  it('token ids, one list or several', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const one = await client(key).embeddings.create({
      model: 'text-embedding-ada-002',
      input: [1, 2, 3, 4],
    });
    expect(one.data).toHaveLength(1);
    expect(one.usage.prompt_tokens).toBe(4);
    const two = await client(key).embeddings.create({
      model: 'text-embedding-3-small',
      input: [
        [5, 6],
        [7, 8, 9],
      ],
    });
    expect(two.data).toHaveLength(2);
    expect(two.usage.prompt_tokens).toBe(5);
  });

  it('gemini-embedding-001 through batchEmbedContents: unit vectors at any dimensions, billed', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const calls =
      gw.simulator!.stats().routes['POST /gemini/v1beta/models/{model}:batchEmbedContents'] ?? 0;
    const answer = await client(key).embeddings.create({
      model: 'gemini-embedding-001',
      input: ['a red fox', 'a red fox', 'a blue whale'],
      dimensions: 768,
      encoding_format: 'float',
    });
    const [a, b, c] = answer.data.map((d) => d.embedding);
    expect(a).toHaveLength(768);
    // Gemini scales only full-length vectors; the gateway scales the others.
    for (const v of [a!, c!]) expect(norm(v)).toBeCloseTo(1, 5);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(
      gw.simulator!.stats().routes['POST /gemini/v1beta/models/{model}:batchEmbedContents'],
    ).toBe(calls + 1);
    // Gemini reports no tokens: the gateway counts them, and bills that.
    expect(answer.usage.prompt_tokens).toBeGreaterThan(0);
    expect(await usedUnits(key)).toBe(Math.ceil(answer.usage.prompt_tokens * 0.15));
    const full = await client(key).embeddings.create({
      model: 'gemini-embedding-001',
      input: 'a red fox',
      encoding_format: 'float',
    });
    expect(full.data[0]!.embedding).toHaveLength(3072);
  });

  describe('refusals before anything is held', () => {
    it.each([
      [
        'dimensions on ada-002',
        { model: 'text-embedding-ada-002', input: 'x', dimensions: 8 },
        'dimensions',
        'unsupported_value',
      ],
      [
        'dimensions above the model’s',
        { model: 'text-embedding-3-small', input: 'x', dimensions: 2000 },
        'dimensions',
        'unsupported_value',
      ],
      [
        'gemini below its range',
        { model: 'gemini-embedding-001', input: 'x', dimensions: 64 },
        'dimensions',
        'unsupported_value',
      ],
      [
        'token ids to gemini',
        { model: 'gemini-embedding-001', input: [1, 2, 3] },
        'input',
        'unsupported_value',
      ],
      [
        'too many inputs for gemini',
        { model: 'gemini-embedding-001', input: Array.from({ length: 101 }, () => 'x') },
        'input',
        'unsupported_value',
      ],
      ['an empty input', { model: 'text-embedding-3-small', input: '' }, 'input', null],
      [
        'an unknown encoding',
        { model: 'text-embedding-3-small', input: 'x', encoding_format: 'int8' },
        'encoding_format',
        'invalid_value',
      ],
      [
        'an unknown field',
        { model: 'text-embedding-3-small', input: 'x', truncate: true },
        'truncate',
        'unknown_field',
      ],
    ])('%s: 400', async (_what, json, param, code) => {
      const { key } = await gw.createKey({ quota: 10_000_000 });
      const error = await expectError(await post(key, json), OP, {
        status: 400,
        param,
        ...(code ? { code } : {}),
      });
      expect(error.message.length).toBeGreaterThan(5);
      expect(await usedUnits(key)).toBe(0);
    });

    it('404 for a model that is not an embedding model, 403 outside the key’s models', async () => {
      const { key } = await gw.createKey({ models: ['text-embedding-3-small'] });
      await expectError(await post(key, { model: 'gpt-4o-mini', input: 'x' }), OP, {
        status: 404,
        code: 'model_not_found',
        param: 'model',
      });
      await expectError(await post(key, { model: 'text-embedding-3-large', input: 'x' }), OP, {
        status: 403,
        code: 'model_not_allowed',
        param: 'model',
      });
    });

    it('429 rate_limit_tokens when the inputs exceed the key’s tpm, before any quota is touched', async () => {
      const { key } = await gw.createKey({ quota: 10_000_000, tpm: 50 });
      const res = await post(key, { model: 'text-embedding-3-small', input: 'x'.repeat(400) });
      await expectError(res, OP, { status: 429, code: 'rate_limit_tokens' });
      expect(await usedUnits(key)).toBe(0);
      const small = await post(key, { model: 'text-embedding-3-small', input: 'a red fox' });
      expect(small.status).toBe(200);
      expect(small.headers.get('x-ratelimit-limit-tokens')).toBe('50');
    });

    it('402 when the balance cannot cover the estimate', async () => {
      const { key } = await gw.createKey({ quota: 1 });
      const res = await post(key, { model: 'text-embedding-3-large', input: 'x'.repeat(4000) });
      await expectError(res, OP, { status: 402, code: 'insufficient_quota' });
    });
  });

  it('an upstream failure is a 502 and refunded in full', async () => {
    const { key, id } = await gw.createKey({ quota: 10_000_000 });
    gw.simulator!.faults.add({
      kind: 'status',
      status: 500,
      match: { path: '/openai/v1/embeddings' },
    });
    await expectError(await post(key, { model: 'text-embedding-3-small', input: 'x' }), OP, {
      status: 502,
      code: 'upstream_error',
    });
    expect(await usedUnits(key)).toBe(0);
    expect(await records(key)).toEqual([]);
    expect(await ledgerDifference(id)).toBe(0);
  });
});

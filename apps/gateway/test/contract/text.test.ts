/**
 * Contract of the text operations (chat completions, legacy completions, messages) and GET
 * /v1/models against a demo-mode gateway: success bodies and every streamed event validated with
 * the generated zod schemas, and each documented error status with its body and headers.
 */
import {
  zChatCompletion,
  zChatCompletionChunk,
  zCompletion,
  zMessage,
  zMessageStreamEvent,
  zModelList,
} from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import {
  expectError,
  expectOk,
  expectStream,
  type Json,
  oversizedJson,
  postAlone,
} from './support.js';

type TextOp = 'POST /v1/chat/completions' | 'POST /v1/completions' | 'POST /v1/messages';

const PATH: Record<TextOp, string> = {
  'POST /v1/chat/completions': '/v1/chat/completions',
  'POST /v1/completions': '/v1/completions',
  'POST /v1/messages': '/v1/messages',
};

/** A valid body per operation for a model. */
const VALID: Record<TextOp, (model: string) => Json> = {
  'POST /v1/chat/completions': (model) => ({
    model,
    messages: [{ role: 'user', content: 'Say hello.' }],
    max_tokens: 8,
  }),
  'POST /v1/completions': (model) => ({ model, prompt: 'Say hello.', max_tokens: 8 }),
  'POST /v1/messages': (model) => ({
    model,
    max_tokens: 8,
    messages: [{ role: 'user', content: 'Say hello.' }],
  }),
};

/** [what, body change, param] — the five ways a body can be invalid, per operation. */
const INVALID: Record<TextOp, [string, (b: Json) => Json, string][]> = {
  'POST /v1/chat/completions': [
    ['wrong type', (b) => ({ ...b, messages: 'hi' }), 'messages'],
    ['out of bounds', (b) => ({ ...b, temperature: 2.5 }), 'temperature'],
    ['out of bounds', (b) => ({ ...b, top_p: 1.5 }), 'top_p'],
    ['out of bounds', (b) => ({ ...b, stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop'],
    // A field the spec does not name is passed upstream (open bodies), so none is listed here.
    ['wrong type', (b) => ({ ...b, seed: 'seven' }), 'seed'],
    ['missing field', ({ messages: _m, ...b }) => b, 'messages'],
    ['missing field', ({ model: _m, ...b }) => b, 'model'],
  ],
  'POST /v1/completions': [
    ['wrong type', (b) => ({ ...b, max_tokens: 'eight' }), 'max_tokens'],
    ['out of bounds', (b) => ({ ...b, frequency_penalty: -3 }), 'frequency_penalty'],
    ['out of bounds', (b) => ({ ...b, n: 2 }), 'n'],
    ['missing field', ({ prompt: _p, ...b }) => b, 'prompt'],
  ],
  'POST /v1/messages': [
    ['wrong type', (b) => ({ ...b, messages: { role: 'user' } }), 'messages'],
    ['out of bounds', (b) => ({ ...b, max_tokens: 0 }), 'max_tokens'],
    ['out of bounds', (b) => ({ ...b, top_k: -1 }), 'top_k'],
    ['missing field', ({ max_tokens: _m, ...b }) => b, 'max_tokens'],
  ],
};

const OPS = Object.keys(PATH) as TextOp[];

describe.each(eachDatabase())('text contract on $name', (database) => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
    // Every key below has an rpm, so every answer must carry x-ratelimit-*.
    ({ key } = await gw.createKey({ rpm: 100_000 }));
  });
  afterAll(() => gw?.close());

  const post = (op: TextOp, body: Json | string, k = key, headers: Record<string, string> = {}) =>
    gw.fetch(PATH[op], {
      method: 'POST',
      key: k,
      ...(typeof body === 'string'
        ? { body, headers: { 'content-type': 'application/json', ...headers } }
        : { json: body, headers }),
    });
  const limited = { limited: true };

  /** The key's used units once background settlement/refund is done (polls briefly). */
  const settledUsed = async (id: number): Promise<number> => {
    let used = -1;
    for (let i = 0; i < 100; i++) {
      // As the balance endpoint does: an idle key's lease goes back first.
      await gw.services.billing.returnIdleLease(id);
      used = (await gw.services.keys.get(id))?.used ?? -1;
      if (used === 0) return 0;
      await new Promise((r) => setTimeout(r, 20));
    }
    return used;
  };

  it('GET /v1/models lists text, image, video and embedding models in the spec shape', async () => {
    const list = await expectOk(
      await gw.fetch('/v1/models', { key }),
      'GET /v1/models',
      zModelList,
      limited,
    );
    expect(new Set(list.data.map((m) => m.type))).toEqual(
      new Set(['text', 'image', 'video', 'embedding']),
    );
  });

  describe.each(['gpt-4o-mini', 'claude-haiku-4-5'])('on %s', (model) => {
    it('POST /v1/chat/completions answers a ChatCompletion, and a valid chunk stream', async () => {
      const op = 'POST /v1/chat/completions';
      await expectOk(await post(op, VALID[op](model)), op, zChatCompletion, limited);
      const chunks = await expectStream(
        await post(op, {
          ...VALID[op](model),
          stream: true,
          stream_options: { include_usage: true },
        }),
        op,
        zChatCompletionChunk,
        { ...limited, done: true },
      );
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks.at(-1)).toMatchObject({
        choices: [],
        usage: { total_tokens: expect.any(Number) },
      });
    });

    it('POST /v1/completions answers a Completion, and a valid chunk stream', async () => {
      const op = 'POST /v1/completions';
      await expectOk(await post(op, VALID[op](model)), op, zCompletion, limited);
      const chunks = await expectStream(
        await post(op, { ...VALID[op](model), stream: true }),
        op,
        zCompletion,
        { ...limited, done: true },
      );
      expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(true);
    });

    it('POST /v1/messages answers a Message, and a valid event stream', async () => {
      const op = 'POST /v1/messages';
      const headers = { 'anthropic-version': '2023-06-01' };
      const res = await gw.fetch('/v1/messages', {
        method: 'POST',
        json: VALID[op](model),
        headers: { 'x-api-key': key, ...headers },
      });
      await expectOk(res, op, zMessage, limited);
      const events = await expectStream(
        await post(op, { ...VALID[op](model), stream: true }, key, headers),
        op,
        zMessageStreamEvent,
        { ...limited, done: false },
      );
      expect(events[0]?.type).toBe('message_start');
      expect(events.at(-1)?.type).toBe('message_stop');
    });
  });

  describe.each(OPS)('%s', (op) => {
    it.each(INVALID[op])('400 for a body with a %s naming %s', async (_what, change, param) => {
      const res = await post(op, change(VALID[op]('gpt-4o-mini')));
      await expectError(res, op, { status: 400, param, ...limited });
    });

    it('400 invalid_json for malformed JSON, 415 for another content type, 413 beyond 1 MiB', async () => {
      const valid = VALID[op]('gpt-4o-mini');
      const broken = await post(op, '{"model": "gpt-4o-mini",');
      await expectError(broken, op, {
        status: 400,
        param: null,
        ...(op === 'POST /v1/messages' ? {} : { code: 'invalid_json' }),
        ...limited,
      });
      const plain = await gw.fetch(PATH[op], {
        method: 'POST',
        key,
        body: JSON.stringify(valid),
        headers: { 'content-type': 'text/plain' },
      });
      await expectError(plain, op, { status: 415, ...limited });
      // Refused while reading, before the key is looked up: no x-ratelimit-* (the request is not counted).
      const huge = await postAlone(`${gw.url}${PATH[op]}`, oversizedJson(valid), {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
      });
      await expectError(huge, op, { status: 413 });
    });

    it('402 when the balance cannot cover the reservation', async () => {
      const { key: poor } = await gw.createKey({ quota: 0, rpm: 100 });
      await expectError(await post(op, VALID[op]('gpt-4o-mini'), poor), op, {
        status: 402,
        ...limited,
      });
    });

    it('403 for a model outside the key models list', async () => {
      const { key: narrow } = await gw.createKey({ models: ['gpt-4o-mini'], rpm: 100 });
      const err = await expectError(await post(op, VALID[op]('claude-haiku-4-5'), narrow), op, {
        status: 403,
        ...limited,
      });
      if (op !== 'POST /v1/messages')
        expect(err).toMatchObject({ param: 'model', code: 'model_not_allowed' });
    });

    it('404 model_not_found for a model upstream does not know — refunded, no breaker trip', async () => {
      const { key: own, id } = await gw.createKey({ quota: 50_000_000, rpm: 100 });
      // More refusals than the circuit breaker tolerates: a client error must never open it (503).
      for (let i = 0; i < 8; i++) {
        const err = await expectError(await post(op, VALID[op]('unknown-model'), own), op, {
          status: 404,
          ...(op === 'POST /v1/messages' ? {} : { code: 'model_not_found', param: 'model' }),
          ...limited,
        });
        expect(err.message).toContain('unknown-model');
      }
      expect(await settledUsed(id)).toBe(0);
    });

    it('400 for a request the upstream refuses, with the upstream message — refunded', async () => {
      const { key: own, id } = await gw.createKey({ quota: 50_000_000, rpm: 100 });
      // A listed model no other test here uses; the fault answers once, then the model works.
      const model = 'gpt-4.1-nano';
      gw.simulator!.faults.add({
        kind: 'status',
        status: 400,
        count: 1,
        message: 'bogus parameter combination',
        match: { model },
      });
      const err = await expectError(await post(op, VALID[op](model), own), op, {
        status: 400,
        ...limited,
      });
      expect(err.message).toContain('bogus parameter combination');
      expect(await settledUsed(id)).toBe(0);
      await expectOk(
        await post(op, VALID[op](model), own),
        op,
        op === 'POST /v1/messages'
          ? zMessage
          : op === 'POST /v1/completions'
            ? zCompletion
            : zChatCompletion,
        limited,
      );
    });
  });

  it('POST /v1/messages: 400 naming vendor-version for a malformed version header', async () => {
    const op = 'POST /v1/messages';
    const res = await post(op, VALID[op]('gpt-4o-mini'), key, { 'vendor-version': 'yesterday' });
    await expectError(res, op, { status: 400, param: 'vendor-version', ...limited });
  });
});

/** A configured catalog (YAML models): A first, B only as the fallback (weight 0). */
describe('text contract with configured deployments', () => {
  let sim: TestGateway;
  let gw: TestGateway;
  let key: string;
  const CHAT = 'POST /openai/v1/chat/completions';

  beforeAll(async () => {
    // The first gateway only lends its simulator; the one under test routes to it by config.
    sim = await startTestGateway();
    const openai = { kind: 'openai', base_url: `${sim.simulatorUrl}/openai/v1`, api_key: 'sk-sim' };
    gw = await startTestGateway({
      simulator: false,
      env: { MODELGATE_BREAKER_FAILURES: '2', MODELGATE_BREAKER_COOLDOWN_MS: '60000' },
      config: {
        demoMode: false,
        file: {
          providers: { a: openai, b: openai },
          models: [
            {
              id: 'duo',
              deployments: [
                { provider: 'a', model: 'duo-a', weight: 1 },
                { provider: 'b', model: 'duo-b', weight: 0 },
              ],
              price: { input_per_million: 1, output_per_million: 1 },
            },
          ],
        },
      },
    });
    ({ key } = await gw.createKey({ rpm: 1000 }));
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const op = 'POST /v1/chat/completions';
  const chat = (model: string) =>
    gw.fetch('/v1/chat/completions', { method: 'POST', key, json: VALID[op](model) });
  const calls = () => sim.simulator!.stats().routes[CHAT] ?? 0;

  it('404 model_not_found (param model) for a model the catalog does not have', async () => {
    await expectError(await chat('gpt-9'), op, {
      status: 404,
      code: 'model_not_found',
      param: 'model',
      limited: true,
    });
  });

  it('an upstream 400 is the client error: no failover, no breaker trip', async () => {
    sim.simulator!.faults.add({ kind: 'status', status: 400, count: 3, match: { model: 'duo-a' } });
    for (let i = 0; i < 3; i++) {
      const before = calls();
      await expectError(await chat('duo'), op, { status: 400, param: null, limited: true });
      expect(calls() - before).toBe(1); // B was not tried
    }
    // Three refusals > the breaker's 2 failures: A would be cooling down if they had counted.
    const ok = await expectOk(await chat('duo'), op, zChatCompletion, { limited: true });
    expect(ok.model).toBe('duo-a');
  });

  it('an upstream 404 for a configured deployment is the gateway’s problem: 502', async () => {
    sim.simulator!.faults.add({ kind: 'status', status: 404, count: 1, match: { model: 'duo-a' } });
    await expectError(await chat('duo'), op, { status: 502, limited: true });
  });
});

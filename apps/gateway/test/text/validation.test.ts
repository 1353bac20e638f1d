/**
 * Bad input on the text routes: each refusal has the documented status, type, code and `param`,
 * never reaches upstream, and bills nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

type ErrorBody = {
  error: { message: string; type: string; code: string | null; param: string | null };
};

const base = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

describe('text request validation', () => {
  let gw: TestGateway;
  let key: string;
  let keyId: number;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key, id: keyId } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  const upstreamCalls = () =>
    (gw.simulator as unknown as { stats(): { total: number } }).stats().total;

  it.each([
    ['temperature above 2', { temperature: 2.5 }, 'temperature', 'out_of_range'],
    ['top_p above 1', { top_p: 1.1 }, 'top_p', 'out_of_range'],
    ['frequency_penalty below -2', { frequency_penalty: -3 }, 'frequency_penalty', 'out_of_range'],
    ['presence_penalty above 2', { presence_penalty: 2.5 }, 'presence_penalty', 'out_of_range'],
    ['five stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop', null],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens', 'out_of_range'],
    ['max_tokens as a string', { max_tokens: '10' }, 'max_tokens', 'invalid_type'],
    // An unnamed field is passed on, not refused (open-bodies.test.ts); a named one stays strict.
    ['seed as a string', { seed: '7' }, 'seed', 'invalid_type'],
    [
      'a bad role',
      { messages: [{ role: 'robot', content: 'x' }] },
      'messages.0.role',
      'invalid_value',
    ],
    ['no messages', { messages: undefined }, 'messages', 'missing_field'],
  ])('chat: %s → 400 naming the field', async (_name, patch, param, code) => {
    const before = upstreamCalls();
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { ...base, ...patch },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-modelgate-overhead-ms')).not.toBeNull();
    const body = (await res.json()) as ErrorBody;
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.param).toBe(param);
    if (code) expect(body.error.code).toBe(code);
    expect(upstreamCalls()).toBe(before);
  });

  it.each([
    [{ temperature: 2.5 }, 'temperature must be at most 2 (got 2.5).'],
    [{ max_tokens: 0 }, 'max_tokens must be at least 1 (got 0).'],
    [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop must have at most 4 items (got 5).'],
  ])('a bound says what it is and what was sent: %j', async (patch, message) => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { ...base, ...patch },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.message).toBe(message);
  });

  it('invalid JSON → 400 invalid_json', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      body: '{"model":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.code).toBe('invalid_json');
  });

  it('an unknown model → 404 model_not_found (a video model is not a text model)', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { ...base, model: 'veo-3-1' },
    });
    expect(res.status).toBe(404);
    expect((await res.json()) as ErrorBody).toMatchObject({
      error: { type: 'not_found_error', code: 'model_not_found', param: 'model' },
    });
  });

  it("a model outside the key's list → 403 model_not_allowed", async () => {
    const limited = await gw.createKey({ models: ['claude-haiku-4-5'] });
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: limited.key,
      json: base,
    });
    expect(res.status).toBe(403);
    expect((await res.json()) as ErrorBody).toMatchObject({
      error: { type: 'permission_error', code: 'model_not_allowed', param: 'model' },
    });
    const ok = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: limited.key,
      json: { ...base, model: 'claude-haiku-4-5' },
    });
    expect(ok.status).toBe(200);
  });

  it('a balance that cannot cover the reservation → 402 insufficient_quota, upstream untouched', async () => {
    const poor = await gw.createKey({ quota: 10 });
    const before = upstreamCalls();
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: poor.key,
      json: { ...base, max_tokens: 100 },
    });
    expect(res.status).toBe(402);
    expect(((await res.json()) as ErrorBody).error.type).toBe('insufficient_quota');
    expect(upstreamCalls()).toBe(before);
  });

  it('messages: errors in the vendor shape; max_tokens required; version header checked', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const message = {
      model: 'claude-haiku-4-5',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
    };

    const missing = await post({ ...message, max_tokens: undefined });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });

    const hot = await post({ ...message, temperature: 1.5 });
    expect(hot.status).toBe(400);

    const malformed = await post(message, { 'vendor-version': 'yesterday' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toContain(
      'vendor-version',
    );
    expect((await post(message, { 'anthropic-version': '2022-01-01' })).status).toBe(400);
    expect((await post(message, { 'vendor-version': '2023-02-30' })).status).toBe(400);

    const later = await post(message, {
      'vendor-version': '2026-01-01',
      'anthropic-version': 'garbage',
    });
    expect(later.status).toBe(200);
    expect(later.headers.get('vendor-version')).toBe('2023-06-01');
    const none = await post(message);
    expect(none.headers.get('vendor-version')).toBe('2023-06-01');
  });

  it('legacy completions: prompt required, bounds enforced', async () => {
    const res = await gw.fetch('/v1/completions', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', temperature: 1 },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.param).toBe('prompt');
  });

  it("a request's worst case (prompt + max_tokens) is held against the key's tpm", async () => {
    const limited = await gw.createKey({ tpm: 100 });
    const send = (maxTokens: number) =>
      gw.fetch('/v1/chat/completions', {
        method: 'POST',
        key: limited.key,
        json: { ...base, max_tokens: maxTokens },
      });
    // No max_tokens: the model's whole output limit is more than the key may use in a minute.
    const unbounded = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: limited.key,
      json: base,
    });
    expect(unbounded.status).toBe(429);
    expect(((await unbounded.json()) as ErrorBody).error).toMatchObject({
      code: 'rate_limit_tokens',
      param: 'max_tokens',
    });
    const first = await send(60);
    expect(first.status).toBe(200);
    await first.text();
    // Held, or settled to what the first used: either way fewer than 60 + prompt are left.
    const second = await send(60);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).not.toBeNull();
    expect(((await second.json()) as ErrorBody).error.code).toBe('rate_limit_tokens');
  });

  it('nothing refused above was billed', async () => {
    await vi.waitFor(
      async () =>
        expect(
          await gw.services.db
            .selectFrom('usage')
            .selectAll()
            .where('key_id', '=', keyId)
            .execute(),
        ).toHaveLength(2),
      { timeout: 5000, interval: 10 },
    );
    const rows = await gw.services.db
      .selectFrom('usage')
      .selectAll()
      .where('key_id', '=', keyId)
      .execute();
    // Only the two successful messages calls of the version test reached upstream.
    expect(rows).toHaveLength(2);
    await gw.services.billing.returnIdleLease(keyId);
    const refused = await gw.services.db
      .selectFrom('api_keys')
      .select('used')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(Number(refused.used)).toBe(rows.reduce((sum, r) => sum + Number(r.units), 0));
  });
});

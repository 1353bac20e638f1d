/**
 * POST /v1/messages/count_tokens on the demo gateway: the Anthropic upstream's own count on a
 * Claude model (equal to what the simulator reports as a create's input_tokens), the gateway's
 * estimate on a GPT model, labelled by x-modelgate-token-count; not billed, rpm-limited,
 * authenticated, the vendor error shape for a bad body or an unknown model.
 */

import { zCreateMessageRequest } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countInputTokens } from '../../src/text/tokens.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const body = (model: string) => ({
  model,
  system: 'You are a terse assistant.',
  messages: [
    { role: 'user', content: 'How many tokens does this question take?' },
    { role: 'assistant', content: [{ type: 'text', text: 'A few.' }] },
    { role: 'user', content: 'Count them exactly, please.' },
  ],
  tools: [{ name: 'count', description: 'Counts.', input_schema: { type: 'object' } }],
});

describe('POST /v1/messages/count_tokens', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const count = (key: string, json: unknown, path = '/v1/messages/count_tokens') =>
    gw.fetch(path, { method: 'POST', key, json });

  it("answers a Claude model with the upstream's count, as the upstream's create reports it", async () => {
    const { key } = await gw.createKey();
    const res = await count(key, body('claude-sonnet-4-5'));
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(res.headers.get('x-modelgate-token-count')).toBe('upstream');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const created = await fetch(`${gw.simulatorUrl}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-sim', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ ...body('claude-sonnet-4-5'), max_tokens: 4 }),
    });
    const usage = ((await created.json()) as { usage: { input_tokens: number } }).usage;
    expect(answer).toEqual({ input_tokens: usage.input_tokens });
    expect(answer.input_tokens).toBeGreaterThan(0);
  });

  it('answers a GPT model with the estimate, labelled so', async () => {
    const { key } = await gw.createKey();
    const res = await count(key, body('gpt-4o-mini'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-token-count')).toBe('estimate');
    const expected = await countInputTokens({
      format: 'messages',
      body: zCreateMessageRequest.parse({ ...body('gpt-4o-mini'), max_tokens: 1 }),
    });
    expect(await res.json()).toEqual({ input_tokens: expected });
  });

  it('is not billed and leaves no usage row', async () => {
    const { key, id } = await gw.createKey({ quota: 1000 });
    for (const model of ['claude-sonnet-4-5', 'gpt-4o-mini']) {
      expect((await count(key, body(model))).status).toBe(200);
    }
    const rows = await gw.services.db
      .selectFrom('usage')
      .selectAll()
      .where('key_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
    const stored = await gw.services.db
      .selectFrom('api_keys')
      .select('used')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.used)).toBe(0);
  });

  it("counts against the key's rpm", async () => {
    const { key } = await gw.createKey({ rpm: 1 });
    expect((await count(key, body('gpt-4o-mini'))).status).toBe(200);
    const limited = await count(key, body('gpt-4o-mini'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('takes ?beta=true, x-api-key and anthropic-version as the beta client sends them', async () => {
    const { key } = await gw.createKey();
    const res = await gw.fetch('/v1/messages/count_tokens?beta=true', {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'token-counting-2024-11-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body('claude-sonnet-4-5')),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('vendor-version')).toBe('2023-06-01');
  });

  it('refuses in the vendor error shape: no key, a bad body, a bad version, an unknown model', async () => {
    const { key } = await gw.createKey();
    const noKey = await gw.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      json: body('gpt-4o-mini'),
    });
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).type).toBe('error');
    for (const bad of [{ model: 'gpt-4o-mini' }, { ...body('gpt-4o-mini'), messages: [] }, []]) {
      const res = await count(key, bad);
      expect(res.status).toBe(400);
      expect((await res.json()).error.type).toBe('invalid_request_error');
    }
    const version = await gw.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      key,
      headers: { 'anthropic-version': 'yesterday' },
      json: body('gpt-4o-mini'),
    });
    expect(version.status).toBe(400);
    const unknown = await count(key, body('no-such-model'));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe('not_found_error');
  });
});

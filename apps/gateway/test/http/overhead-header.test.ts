/** x-modelgate-overhead-ms is on every answer, also those the middleware gives before any route. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('x-modelgate-overhead-ms on middleware answers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const overheadOf = (res: Response) => {
    const value = res.headers.get('x-modelgate-overhead-ms');
    expect(value).toMatch(/^\d+(\.\d+)?$/);
    return Number(value);
  };

  it('is on a 401 (no key, bad key)', async () => {
    const none = await gw.fetch('/v1/models');
    expect(none.status).toBe(401);
    overheadOf(none);
    const bad = await gw.fetch('/v1/models', { key: 'sk-not-a-key' });
    expect(bad.status).toBe(401);
    overheadOf(bad);
  });

  it('is on a 429 from the rate limiter, next to the x-ratelimit headers', async () => {
    const { key } = await gw.createKey({ quota: 1_000_000, rpm: 1 });
    const ok = await gw.fetch('/v1/models', { key });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit-requests')).toBe('1');
    const limited = await gw.fetch('/v1/models', { key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    overheadOf(limited);
  });

  it('keeps the x-ratelimit headers on a completion (a route that returns its own Response)', async () => {
    const { key } = await gw.createKey({ quota: 100_000_000, rpm: 100 });
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit-requests')).toBe('100');
    expect(res.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    overheadOf(res);
    await res.text();
  });

  it('keeps the CORS headers on a completion', async () => {
    const { key } = await gw.createKey({ quota: 100_000_000 });
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { origin: 'https://app.example' },
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-modelgate-overhead-ms');
    await res.text();
  });
});

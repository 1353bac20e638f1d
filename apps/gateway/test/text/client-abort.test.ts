/** Clients that hang up are not upstream failures: they must not open the circuit breaker. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('client disconnects', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: { latencyMs: 300 } });
  });
  afterAll(() => gw?.close());
  const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
  /** A chat the client abandons after 50 ms: resolves to whether it hung up before the answer. */
  const hangUp = (key: string) =>
    gw
      .fetch('/v1/chat/completions', {
        method: 'POST',
        key,
        json: body,
        signal: AbortSignal.timeout(50),
      })
      .then(
        () => false,
        () => true,
      );

  it('leave the model available after many hang-ups', async () => {
    const { key } = await gw.createKey({ quota: 1_000_000_000 });
    const hungUp = await Promise.all(Array.from({ length: 8 }, () => hangUp(key)));
    expect(hungUp).toContain(true);
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', key, json: body });
    expect(res.status).toBe(200);
    await res.text();
  });

  it('stop the upstream call and charge nothing when the client leaves before the answer', async () => {
    const { key } = await gw.createKey({ quota: 1_000_000_000 });
    const used = async () => {
      const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
      return ((await res.json()) as { total_used: number }).total_used;
    };
    expect(await hangUp(key)).toBe(true);
    // Past the upstream's 300 ms: had the call gone on, its answer would have been settled by now.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await used()).toBe(0);
    // The same request answered is charged: the zero above is the refund, not a free model.
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', key, json: body });
    expect(res.status).toBe(200);
    await res.text();
    await expect.poll(used, { timeout: 5_000 }).toBeGreaterThan(0);
  });
});

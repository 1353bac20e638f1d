import { zCreditSummary, zToken } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../../support/index.js';

describe.each(eachDatabase())('account API on $name', (database) => {
  let gw: TestGateway;
  beforeAll(async () => {
    // Demo mode (the simulator): POST /v1/token checks `models` against the models served.
    gw = await startTestGateway({ database });
  });
  afterAll(() => gw?.close());

  it('creates a token with the admin key and reports its balance', async () => {
    const res = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      json: { name: 'alice', quota: 2_500_000, rpm: 100, models: ['gpt-4o-mini'] },
    });
    expect(res.status).toBe(200);
    const token = (await res.json()) as Record<string, unknown>;
    expect(token).toMatchObject({
      name: 'alice',
      quota: 2_500_000,
      rpm: 100,
      models: ['gpt-4o-mini'],
    });
    expect(token.key).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    expect(token.callback_secret).toMatch(/^whsec_/);
    expect(token).toMatchObject({ expires_at: null, tpm: null });
    expect(zToken.safeParse(token).success).toBe(true);
    expect(typeof token.id).toBe('number');
    expect(Math.abs((token.created_time as number) - Date.now() / 1000)).toBeLessThan(60);

    const bal = await gw.fetch('/v1/dashboard/billing/credit_grants', { key: token.key as string });
    expect(bal.status).toBe(200);
    const summary = (await bal.json()) as Record<string, unknown>;
    expect(zCreditSummary.safeParse(summary).success).toBe(true);
    expect(summary).toMatchObject({
      object: 'credit_summary',
      total_granted: 2.5,
      total_used: 0,
      total_available: 2.5,
    });
    const grants = (summary.grants as { data: Record<string, unknown>[] }).data;
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ object: 'credit_grant', grant_amount: 2.5, used_amount: 0 });
  });

  it('reflects reservations and settlements in the balance', async () => {
    const { key, id } = await gw.createKey({ quota: 3_000_000 });
    const { billing } = gw.services;
    expect(await billing.reserve(id, 1_000_000)).toBe(true);
    await billing.settle(id, 1_000_000, 250_000, {
      kind: 'text',
      model: 'm',
      requestId: 'r1',
    });
    const summary = (await (
      await gw.fetch('/v1/dashboard/billing/credit_grants', { key })
    ).json()) as Record<string, number>;
    expect(summary.total_used).toBe(0.25);
    expect(summary.total_available).toBe(2.75);
  });

  it('refuses a user key on the admin route with 403', async () => {
    const { key } = await gw.createKey();
    const res = await gw.fetch('/v1/token', { method: 'POST', key, json: { name: 'x', quota: 1 } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('permission_error');
  });

  it('validates the token body and names the field', async () => {
    const cases: [unknown, string, string][] = [
      [{ quota: 1 }, 'name', 'missing_field'],
      [{ name: '', quota: 1 }, 'name', 'out_of_range'],
      [{ name: 'x'.repeat(65), quota: 1 }, 'name', 'out_of_range'],
      [{ name: 'a', quota: -1 }, 'quota', 'out_of_range'],
      [{ name: 'a', quota: 1.5 }, 'quota', 'invalid_type'],
      [{ name: 'a', quota: 1, role: 'admin' }, 'role', 'unknown_field'],
      [{ name: 'a', quota: 1, expires_at: 1000 }, 'expires_at', 'out_of_range'],
    ];
    for (const [json, param, code] of cases) {
      const res = await gw.fetch('/v1/token', { method: 'POST', key: gw.adminKey, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as { error: { param: string; code: string; type: string } };
      expect(body.error, JSON.stringify(json)).toMatchObject({
        type: 'invalid_request_error',
        param,
      });
      expect([code, 'invalid_type', 'out_of_range']).toContain(body.error.code);
    }
  });

  it('answers 401 for missing, unknown, expired and revoked keys', async () => {
    const path = '/v1/dashboard/billing/credit_grants';
    const missing = await gw.fetch(path);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
      'invalid_api_key',
    );

    const unknown = await gw.fetch(path, { key: `sk-${'a'.repeat(48)}` });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      'invalid_api_key',
    );

    const expired = await gw.createKey({ expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const e = await gw.fetch(path, { key: expired.key });
    expect(e.status).toBe(401);
    expect(((await e.json()) as { error: { code: string } }).error.code).toBe('expired_api_key');

    const revoked = await gw.createKey();
    expect((await gw.fetch(path, { key: revoked.key })).status).toBe(200); // now cached
    await gw.services.keys.revoke(revoked.id);
    const r = await gw.fetch(path, { key: revoked.key });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('revoked_api_key');
  });
});

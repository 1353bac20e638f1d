// A budget on the key object, on POST /v1/token and PATCH /v1/keys/{id} (audited before/after),
// and on the balance (the key's and its team's, in credits).
import { zApiKey, zCreditSummary } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/budgets/index.js';
import { expectError, expectOk, type Json } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('budgets on keys and the balance', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    gw.fetch(path, { ...init, key: gw.adminKey });

  async function team(amount: number) {
    const row = await gw.services.db
      .insertInto('teams')
      .values({
        name: 'api',
        alert_url: null,
        created_at: 0,
        budget_amount: amount,
        budget_period: 'month',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function createToken(body: Json) {
    const res = await admin('/v1/token', {
      method: 'POST',
      json: { name: 'budgeted', quota: 10_000_000, ...body },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  const getKey = async (id: number) =>
    expectOk(await admin(`/v1/keys/${id}`), 'GET /v1/keys/{key_id}', zApiKey);

  it('creates a key with a budget and a team, and shows both on the key object', async () => {
    const teamId = await team(5_000_000);
    const token = await createToken({
      budget: { amount: 2_000_000, period: 'day' },
      team_id: teamId,
    });
    const key = await getKey(token.id);
    expect(key.team_id).toBe(teamId);
    expect(key.budget).toMatchObject({ amount: 2_000_000, period: 'day', spent: 0 });
    const now = Math.floor(Date.now() / 1000);
    expect(key.budget!.period_start).toBeLessThanOrEqual(now);
    expect(key.budget!.resets_at - key.budget!.period_start).toBeGreaterThanOrEqual(23 * 3600);
    expect(key.budget!.resets_at).toBeGreaterThan(now);
  });

  it('refuses a team that does not exist', async () => {
    const res = await admin('/v1/token', {
      method: 'POST',
      json: { name: 'no team', quota: 1, team_id: 987_654 },
    });
    const error = await expectError(res, 'POST /v1/token', {
      status: 400,
      code: 'invalid_value',
      param: 'team_id',
    });
    expect(error.message).toContain('no team 987654');
  });

  it('changes a budget with PATCH: a new amount keeps the spend, a new period starts from zero', async () => {
    const token = await createToken({ budget: { amount: 1_000_000, period: 'week' } });
    const hold = await gw.services.billing.hold(token.id, 300_000, {
      kind: 'text',
      requestId: 'r1',
    });
    hold!.settle(250_000);
    await gw.services.billing.flushSettlements();
    const patch = async (json: Json) =>
      expectOk(
        await admin(`/v1/keys/${token.id}`, { method: 'PATCH', json }),
        'PATCH /v1/keys/{key_id}',
        zApiKey,
      );
    expect((await patch({ budget: { amount: 2_000_000, period: 'week' } })).budget).toMatchObject({
      amount: 2_000_000,
      spent: 250_000,
    });
    expect((await patch({ budget: { amount: 2_000_000, period: 'month' } })).budget).toMatchObject({
      period: 'month',
      spent: 0,
    });
    expect((await patch({ budget: null })).budget).toBeNull();

    const audit = (await (await admin(`/v1/audit?key_id=${token.id}`)).json()) as Json;
    const updates = (audit.data as Json[]).filter((e) => e.action === 'key.update').reverse();
    expect(updates.map((e) => [e.before.budget, e.after.budget])).toEqual([
      [
        { amount: 1_000_000, period: 'week' },
        { amount: 2_000_000, period: 'week' },
      ],
      [
        { amount: 2_000_000, period: 'week' },
        { amount: 2_000_000, period: 'month' },
      ],
      [{ amount: 2_000_000, period: 'month' }, null],
    ]);
  });

  it("shows the key's and its team's budgets on the balance, in credits", async () => {
    const teamId = await team(4_000_000);
    const token = await createToken({
      budget: { amount: 2_000_000, period: 'day' },
      team_id: teamId,
    });
    const hold = await gw.services.billing.hold(token.id, 500_000, {
      kind: 'text',
      requestId: 'r2',
    });
    hold!.settle(500_000);
    const summary = await expectOk(
      await gw.fetch('/v1/dashboard/billing/credit_grants', { key: token.key }),
      'GET /v1/dashboard/billing/credit_grants',
      zCreditSummary,
    );
    expect(summary.budgets.key).toMatchObject({
      amount: 2,
      period: 'day',
      spent: 0.5,
      available: 1.5,
    });
    expect(summary.budgets.team).toMatchObject({
      amount: 4,
      period: 'month',
      spent: 0.5,
      available: 3.5,
    });
    const plain = await createToken({});
    const none = (await (
      await gw.fetch('/v1/dashboard/billing/credit_grants', { key: plain.key })
    ).json()) as Json;
    expect(none.budgets).toEqual({ key: null, team: null });
  });
});

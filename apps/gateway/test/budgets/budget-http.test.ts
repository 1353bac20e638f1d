// What a client sees when a budget is spent: a 402 `budget_exceeded` naming the budget, its
// amount, period and reset time (also in `error.budget`); quota exhaustion stays insufficient_quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/budgets/index.js';
import { expectError } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const OP = 'POST /v1/chat/completions';

describe('a spent budget over HTTP', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const chat = (key: string) =>
    gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
    });

  async function budgeted(budget: { amount: number; period: 'day' | 'week' }, teamBudget?: number) {
    const { key, id } = await gw.createKey({ quota: 1_000_000_000 });
    const { db } = gw.services;
    let teamId: number | null = null;
    if (teamBudget !== undefined) {
      const team = await db
        .insertInto('teams')
        .values({
          name: 'http',
          alert_url: null,
          created_at: 0,
          budget_amount: teamBudget,
          budget_period: 'month',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      teamId = Number(team.id);
    }
    await db
      .updateTable('api_keys')
      .set({ budget_amount: budget.amount, budget_period: budget.period, team_id: teamId })
      .where('id', '=', id)
      .execute();
    return { key, id, teamId };
  }

  it("402 budget_exceeded naming the key's budget and when it resets", async () => {
    const { key } = await budgeted({ amount: 1, period: 'day' });
    const error = await expectError(await chat(key), OP, { status: 402, code: 'budget_exceeded' });
    expect(error.message).toMatch(
      /^This key's budget of 0\.000001 credits per day is spent; it resets at \d{4}-\d\d-\d\dT\d\d:00:00Z\.$/,
    );
    expect(error.budget).toEqual({
      scope: 'key',
      amount: 0.000001,
      period: 'day',
      resets_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(error.budget.resets_at)).toBeGreaterThan(Date.now());
  });

  it("names the team's budget when the team's is the one spent", async () => {
    const { key, teamId } = await budgeted({ amount: 1_000_000, period: 'week' }, 2);
    const error = await expectError(await chat(key), OP, { status: 402, code: 'budget_exceeded' });
    expect(error.message).toContain(`Team ${teamId}'s budget of 0.000002 credits per month`);
    expect(error.budget).toMatchObject({ scope: 'team', team_id: teamId, period: 'month' });
  });

  it('answers within the budget, and the budget counts what was charged', async () => {
    const { key, id } = await budgeted({ amount: 1_000_000, period: 'week' });
    expect((await chat(key)).status).toBe(200);
    await gw.services.billing.flushSettlements();
    const row = await gw.services.db
      .selectFrom('api_keys')
      .select(['used', 'budget_spent'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.budget_spent)).toBe(Number(row.used));
    expect(Number(row.used)).toBeGreaterThan(0);
  });

  it('keeps insufficient_quota for a used-up quota', async () => {
    const { key } = await gw.createKey({ quota: 1 });
    await expectError(await chat(key), OP, { status: 402, code: 'insufficient_quota' });
  });
});

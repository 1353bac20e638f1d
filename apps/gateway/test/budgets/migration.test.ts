// Migration 009_budgets on each database: teams exist, keys carry a budget and a team, and the
// constraints refuse a half-set budget, an unknown period, a negative spend and a missing team.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/budgets/index.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { eachDatabase, type FreshDatabase, freshDatabase } from '../support/index.js';

describe.each(eachDatabase())('budget columns on $name', (target) => {
  let fresh: FreshDatabase;
  let database: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(target, { empty: true });
    database = await createDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.pgliteDir });
    await migrate(database.db, database.kind);
  });
  afterAll(async () => {
    await database?.close();
    await fresh?.drop();
  });

  const key = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    key_hash: `hash-${id}`,
    key_prefix: 'sk-test',
    name: `key ${id}`,
    role: 'user' as const,
    quota: 1000,
    models: null,
    rpm: null,
    tpm: null,
    expires_at: null,
    revoked_at: null,
    created_at: 0,
    ...extra,
  });

  it('stores a team budget and a key in that team with its own budget', async () => {
    const team = await database.db
      .insertInto('teams')
      .values({
        name: 'research',
        budget_amount: 500,
        budget_period: 'day',
        created_at: 0,
        alert_url: null,
      })
      .returning(['id', 'budget_spent'])
      .executeTakeFirstOrThrow();
    expect(Number(team.budget_spent)).toBe(0);
    await database.db
      .insertInto('api_keys')
      .values(key(9001, { team_id: team.id, budget_amount: 100, budget_period: 'week' }))
      .execute();
    const row = await database.db
      .selectFrom('api_keys')
      .select(['team_id', 'budget_amount', 'budget_period', 'budget_spent'])
      .where('id', '=', 9001)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ budget_period: 'week' });
    expect([Number(row.team_id), Number(row.budget_amount), Number(row.budget_spent)]).toEqual([
      Number(team.id),
      100,
      0,
    ]);
  });

  let refusals = 0;
  it.each([
    ['an amount without a period', { budget_amount: 100 }],
    ['a period without an amount', { budget_period: 'day' }],
    ['an unknown period', { budget_amount: 100, budget_period: 'fortnight' }],
    ['a negative amount', { budget_amount: -1, budget_period: 'day' }],
    ['a negative spend', { budget_spent: -5 }],
    ['a team that does not exist', { team_id: 424242 }],
  ])('refuses %s', async (_, extra) => {
    await expect(
      database.db
        .insertInto('api_keys')
        // biome-ignore lint/suspicious/noExplicitAny: the point is values the types would refuse.
        .values(key(9100 + refusals++, extra) as any)
        .execute(),
    ).rejects.toThrow();
  });
});

// The budget reservation statement: 200 concurrent reservations against a budget let exactly the
// covered number through (no overspend), a new period starts from zero, and quota still binds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/budgets/index.js';
import { reserveWithinBudget } from '../../src/budgets/reserve.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { eachDatabase, type FreshDatabase, freshDatabase } from '../support/index.js';

describe.each(eachDatabase())('reserveWithinBudget on $name', (target) => {
  let fresh: FreshDatabase;
  let database: Database;
  let nextId = 1;
  beforeAll(async () => {
    fresh = await freshDatabase(target);
    database = await createDatabase({ databaseUrl: fresh.databaseUrl, dataDir: fresh.pgliteDir });
    await migrate(database.db, database.kind);
  });
  afterAll(async () => {
    await database?.close();
    await fresh?.drop();
  });

  async function key(quota: number | null, budget: number, period: 'day' | 'week' | 'month') {
    const id = 7000 + nextId++;
    await database.db
      .insertInto('api_keys')
      .values({
        id,
        key_hash: `budget-${id}`,
        key_prefix: 'sk-test',
        name: `budget ${id}`,
        role: 'user',
        quota,
        models: null,
        rpm: null,
        tpm: null,
        expires_at: null,
        revoked_at: null,
        created_at: 0,
        budget_amount: budget,
        budget_period: period,
      })
      .execute();
    return id;
  }

  const row = (id: number) =>
    database.db
      .selectFrom('api_keys')
      .select(['used', 'budget_spent', 'budget_period_start', 'budget_period_end'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('lets exactly the budgeted number of 200 concurrent reservations through', async () => {
    const id = await key(1_000_000, 50 * 1_000, 'day');
    const now = new Date('2026-11-28T12:00:00Z');
    const results = await Promise.all(
      Array.from({ length: 200 }, () => reserveWithinBudget(database.db, id, 1_000, now, 'UTC')),
    );
    expect(results.filter(Boolean)).toHaveLength(50);
    const after = await row(id);
    expect([Number(after.used), Number(after.budget_spent)]).toEqual([50_000, 50_000]);
    expect(Number(after.budget_period_start)).toBe(Date.parse('2026-11-28T00:00:00Z') / 1000);
    expect(Number(after.budget_period_end)).toBe(Date.parse('2026-11-29T00:00:00Z') / 1000);
  });

  it('starts the next period from zero, in the configured zone', async () => {
    const id = await key(null, 3_000, 'week');
    const saturday = new Date('2026-11-28T12:00:00Z');
    expect(await reserveWithinBudget(database.db, id, 3_000, saturday, 'Europe/Paris')).toBe(true);
    expect(await reserveWithinBudget(database.db, id, 1, saturday, 'Europe/Paris')).toBe(false);
    // Sunday 23:30 UTC is already Monday 00:30 in Paris: a new week.
    const monday = new Date('2026-11-29T23:30:00Z');
    expect(await reserveWithinBudget(database.db, id, 2_000, monday, 'Europe/Paris')).toBe(true);
    const after = await row(id);
    expect([Number(after.used), Number(after.budget_spent)]).toEqual([5_000, 2_000]);
    expect(Number(after.budget_period_start)).toBe(Date.parse('2026-11-29T23:00:00Z') / 1000);
  });

  it('still refuses what the quota does not cover, budget or not', async () => {
    const id = await key(1_000, 10_000, 'month');
    const now = new Date('2026-11-28T12:00:00Z');
    expect(await reserveWithinBudget(database.db, id, 1_001, now, 'UTC')).toBe(false);
    expect(Number((await row(id)).budget_spent)).toBe(0);
  });
});

// Budgets enforced by billing: a budgeted key (or one whose team has a budget) takes no lease, and
// no number of concurrent requests on any number of instances spends past a budget; settlements
// and refunds give the unused part back to the period that reserved it, exactly once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { recoverJournals } from '../../src/billing/instances.js';
import { findJournals, openJournal } from '../../src/billing/journal.js';
import { settleOne } from '../../src/billing/statements.js';
import '../../src/budgets/index.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createKeyService } from '../../src/keys/keys.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

describe.each(eachDatabase())('budgets in billing on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  const purpose = { kind: 'text', requestId: 'req_budget' } as const;

  async function budgetedKey(
    name: string,
    budget: number | null,
    options: { quota?: number | null; teamId?: number } = {},
  ) {
    const { record } = await createKeyService(h.db).create({ name, quota: options.quota ?? null });
    await h.db
      .updateTable('api_keys')
      .set({
        budget_amount: budget,
        budget_period: budget === null ? null : 'day',
        team_id: options.teamId ?? null,
      })
      .where('id', '=', record.id)
      .execute();
    return record.id;
  }

  async function team(budget: number) {
    const row = await h.db
      .insertInto('teams')
      .values({
        name: 'team',
        alert_url: null,
        created_at: 0,
        budget_amount: budget,
        budget_period: 'week',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const keyRow = async (id: number) => {
    const row = await h.db
      .selectFrom('api_keys')
      .select(['used', 'budget_spent', 'budget_period_start'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { used: Number(row.used), spent: Number(row.budget_spent) };
  };
  const teamSpent = async (id: number) =>
    Number(
      (
        await h.db
          .selectFrom('teams')
          .select('budget_spent')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).budget_spent,
    );
  const usageUnits = async (id: number) =>
    (await h.db.selectFrom('usage').select('units').where('key_id', '=', id).execute()).map((r) =>
      Number(r.units),
    );

  it('lets exactly the budget through 200 concurrent holds on two instances', async () => {
    const id = await budgetedKey('race', 50 * 1_000);
    const a = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const b = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hold(id, 1_000, purpose)),
    );
    const held = results.filter((r) => r.status === 'fulfilled' && r.value);
    const refused = results.filter((r) => r.status === 'rejected');
    expect([held.length, refused.length]).toEqual([50, 150]);
    const reason = (refused[0] as PromiseRejectedResult).reason as ApiError;
    expect([reason.status, reason.code]).toEqual([402, 'budget_exceeded']);
    expect(reason.message).toMatch(
      /^This key's budget of 0\.05 credits per day is spent; it resets at \d{4}-\d\d-\d\dT00:00:00Z\.$/,
    );
    // No lease was taken: used is exactly what the holds reserved.
    expect(await keyRow(id)).toEqual({ used: 50_000, spent: 50_000 });
    await Promise.all([a.drain(), b.drain()]);
  });

  it('gives the unused part back on settle, and all of it on refund, exactly once', async () => {
    const id = await budgetedKey('settle', 10_000, { quota: 100_000 });
    const billing = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const first = await billing.hold(id, 4_000, purpose);
    const second = await billing.hold(id, 4_000, purpose);
    expect(await keyRow(id)).toEqual({ used: 8_000, spent: 8_000 });
    first!.settle(1_500);
    first!.settle(1_000); // closed: nothing
    second!.refund();
    await billing.drain();
    expect(await keyRow(id)).toEqual({ used: 1_500, spent: 1_500 });
    expect((await usageUnits(id)).sort()).toEqual([0, 1_500]);
    // The budget has room again for what came back.
    expect(await billing.hold(id, 8_500, purpose)).not.toBeNull();
    await expect(billing.hold(id, 1, purpose)).rejects.toMatchObject({ code: 'budget_exceeded' });
    await billing.drain();
  });

  it("reserves for a key's own budget in one statement, for a team's in one transaction", async () => {
    let statements: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const db = h.db.withPlugin(counting);
    const teamId = await team(1_000_000);
    const own = await budgetedKey('one statement', 1_000_000);
    const inTeam = await budgetedKey('team transaction', null, { teamId });
    const billing = createBilling(db, undefined, { kind: h.kind, settleGatherMs: 60_000 });
    await billing.hold(own, 1_000, purpose); // learns the key is budgeted
    await billing.hold(inTeam, 1_000, purpose); // learns its team is
    statements = [];
    await billing.hold(own, 1_000, purpose);
    expect(statements).toHaveLength(1);
    statements = [];
    await billing.hold(inTeam, 1_000, purpose);
    // The key's UPDATE and the team's (BEGIN and COMMIT are not queries to a plugin).
    expect(statements).toHaveLength(2);
    await billing.drain();
  });

  it('refuses with insufficient_quota when the quota, not the budget, runs out', async () => {
    const id = await budgetedKey('quota', 10_000, { quota: 2_000 });
    const billing = createBilling(h.db, undefined, { kind: h.kind });
    expect(await billing.hold(id, 3_000, purpose)).toBeNull();
    expect(await keyRow(id)).toEqual({ used: 0, spent: 0 });
  });

  it('rolls over at the period end and never credits the next period', async () => {
    const id = await budgetedKey('rollover', 1_000);
    let now = new Date('2026-11-30T12:00:00Z');
    const billing = createBilling(h.db, undefined, { kind: h.kind, now: () => now });
    const monday = await billing.hold(id, 800, purpose);
    await expect(billing.hold(id, 201, purpose)).rejects.toMatchObject({
      message: expect.stringContaining('resets at 2026-12-01T00:00:00Z'),
    });
    now = new Date('2026-12-01T01:00:00Z');
    const tuesday = await billing.hold(id, 1_000, purpose);
    expect(tuesday).not.toBeNull();
    // Monday's hold settles on Tuesday with 500 unused: Tuesday's budget is not credited.
    monday!.settle(300);
    await billing.drain();
    expect(await keyRow(id)).toEqual({ used: 1_300, spent: 1_000 });
  });

  it("shares a team's budget between its keys, on two instances", async () => {
    const teamId = await team(10 * 1_000);
    const keyA = await budgetedKey('team a', null, { teamId });
    const keyB = await budgetedKey('team b', 8 * 1_000, { teamId });
    const a = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const b = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).hold(i < 20 ? keyA : keyB, 1_000, purpose),
      ),
    );
    const held = results.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
    expect(held).toHaveLength(10);
    expect(await teamSpent(teamId)).toBe(10_000);
    const [ra, rb] = [await keyRow(keyA), await keyRow(keyB)];
    expect(ra.used + rb.used).toBe(10_000);
    const refusal = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refusal.reason.message).toContain(`Team ${teamId}'s budget of 0.01 credits per week`);
    for (const hold of held) hold.settle(250);
    await Promise.all([a.drain(), b.drain()]);
    expect(await teamSpent(teamId)).toBe(2_500);
    expect((await keyRow(keyA)).used + (await keyRow(keyB)).used).toBe(2_500);
  });

  it('journals the reservation stamp, and a replay moves the budget only once', async () => {
    const id = await budgetedKey('replay', 5_000);
    const root = mkdtempSync(join(tmpdir(), 'budget-journal-'));
    const journal = openJournal(root, 'gw-budget-replay');
    const billing = createBilling(h.db, undefined, {
      kind: h.kind,
      owner: 'gw-budget-replay',
      journal,
    });
    const hold = await billing.hold(id, 4_000, purpose);
    // As a crash would leave it: in the journal, not yet in the database.
    journal.append({
      keyId: id,
      reserved: 4_000,
      actual: 1_000,
      meta: { kind: 'text' },
      budgetAt: hold!.budgetAt,
    });
    const [found] = findJournals(root, 'someone-else');
    const entry = found!.entries[0]!;
    expect(entry.budgetAt).toBe(hold!.budgetAt);
    await settleOne(h.db, entry, 'gw-budget-replay');
    await settleOne(h.db, entry, 'gw-budget-replay');
    expect(await keyRow(id)).toEqual({ used: 1_000, spent: 1_000 });
    expect(await usageUnits(id)).toEqual([1_000]);
  });

  it("replays a dead instance's journal: the budget gets the unused part back once", async () => {
    const id = await budgetedKey('recover', 10_000);
    const root = mkdtempSync(join(tmpdir(), 'budget-recover-'));
    const owner = `gw-dead-${id}`;
    // The dead instance reserved 4,000 and answered for 1,000: in its journal, not in the database.
    const dead = createBilling(h.db, undefined, { kind: h.kind, owner });
    const hold = await dead.hold(id, 4_000, purpose);
    const item = {
      keyId: id,
      reserved: 4_000,
      actual: 1_000,
      meta: { kind: 'text', requestId: 'req_dead' },
      budgetAt: hold!.budgetAt,
    };
    const journal = openJournal(root, owner);
    journal.append(item);
    expect(await recoverJournals(h.db, root, 'gw-alive')).toBe(1);
    expect(await keyRow(id)).toEqual({ used: 1_000, spent: 1_000 });
    // The same journal found again (a copy left behind): nothing moves twice.
    openJournal(root, owner).append(item);
    await recoverJournals(h.db, root, 'gw-alive');
    expect(await keyRow(id)).toEqual({ used: 1_000, spent: 1_000 });
    expect(await usageUnits(id)).toEqual([1_000]);
  });

  it("charges video's in-transaction reservations against the budget", async () => {
    const id = await budgetedKey('video', 10_000);
    const billing = createBilling(h.db, undefined, { kind: h.kind });
    const at = new Date();
    await h.db.transaction().execute(async (trx) => {
      expect(await billing.inTransaction(trx).reserve(id, 6_000, at)).toBe(true);
    });
    await expect(
      h.db.transaction().execute((trx) => billing.inTransaction(trx).reserve(id, 6_000, at)),
    ).rejects.toBeInstanceOf(ApiError);
    expect(await keyRow(id)).toEqual({ used: 6_000, spent: 6_000 });
    const reservedAt = Math.floor(at.getTime() / 1000);
    await h.db
      .transaction()
      .execute((trx) =>
        billing.inTransaction(trx).settle(id, 6_000, 2_000, { kind: 'video' }, reservedAt),
      );
    expect(await keyRow(id)).toEqual({ used: 2_000, spent: 2_000 });
  });

  it('keeps the lease path for keys without a budget', async () => {
    const id = await budgetedKey('leased', null, { quota: null });
    const billing = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 60_000 });
    const hold = await billing.hold(id, 1_000, purpose);
    expect(hold!.budgetAt).toBeNull();
    // 32× the reservation leased ahead beside it.
    expect((await keyRow(id)).used).toBe(33_000);
    hold!.settle(1_000);
    await billing.returnIdleLeases();
    expect((await keyRow(id)).used).toBe(1_000);
    await billing.drain();
  });
});

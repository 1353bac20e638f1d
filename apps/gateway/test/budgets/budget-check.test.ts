// The budgets' half of `ledger check`: each key's and team's spent in its stored period equals the
// usage rows that moved it (plus what is in flight), across settlements, refunds, video, a period
// rollover under a reservation in flight and a dead instance's returned holds; books broken on
// purpose are reported.
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import {
  type BudgetCheckRow,
  budgetsBalance,
  checkBudgets,
  formatBudgets,
} from '../../src/billing/budget-check.js';
import { createInstanceRegistry, returnHolds } from '../../src/billing/instances.js';
import '../../src/budgets/index.js';
import type { DB } from '../../src/db/schema.js';
import { createKeyService } from '../../src/keys/keys.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

const purpose = { kind: 'text', requestId: 'req_budget_check' } as const;

describe.each(eachDatabase())('the budget check on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  async function team(budget: number) {
    const row = await h.db
      .insertInto('teams')
      .values({
        name: 'checked',
        alert_url: null,
        created_at: 0,
        budget_amount: budget,
        budget_period: 'day',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function key(budget: number | null, teamId: number | null) {
    const { record } = await createKeyService(h.db).create({ name: 'checked', quota: null });
    await h.db
      .updateTable('api_keys')
      .set({
        budget_amount: budget,
        budget_period: budget === null ? null : 'day',
        team_id: teamId,
      })
      .where('id', '=', record.id)
      .execute();
    return record.id;
  }

  /** The check's rows for these budgets only (other tests share the database). */
  async function rowsOf(keys: number[], teams: number[]) {
    const rows = await checkBudgets(h.db);
    const pick = (scope: BudgetCheckRow['scope'], id: number) =>
      rows.find((r) => r.scope === scope && r.id === id)!;
    return [...keys.map((id) => pick('key', id)), ...teams.map((id) => pick('team', id))];
  }

  /** A video task's row as submission inserts it: its reservation is in flight until it is final. */
  async function openTask(trx: Transaction<DB>, keyId: number, units: number, at: Date) {
    const seconds = Math.floor(at.getTime() / 1000);
    const id = `vt_check_${keyId}_${seconds}`;
    await sql`insert into video_tasks (id, key_id, model, provider, status, params, reserved_units,
        next_poll_at_ms, deadline_at_ms, created_at, updated_at)
      values (${id}, ${keyId}, 'sim-video', 'sim', 'pending', '{}', ${units}, 0, 0, ${seconds},
        ${seconds})`.execute(trx);
    return id;
  }

  const spent = async (table: 'api_keys' | 'teams', id: number) =>
    Number(
      (
        await h.db
          .selectFrom(table)
          .select('budget_spent')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).budget_spent,
    );

  it('balances after settlements, refunds, video and a hold in flight', async () => {
    const teamId = await team(1_000_000);
    const own = await key(500_000, teamId);
    const teamOnly = await key(null, teamId);
    const clock = { now: new Date('2026-11-28T10:00:00Z') };
    const billing = createBilling(h.db, undefined, { kind: h.kind, now: () => clock.now });
    for (const [keyId, actual] of [
      [own, 1_500],
      [teamOnly, 700],
      [own, 3_000], // dearer than its reservation: the budgets get the difference
    ] as const) {
      (await billing.hold(keyId, 2_000, purpose))!.settle(actual);
    }
    (await billing.hold(teamOnly, 2_000, purpose))!.refund();
    const at = new Date('2026-11-28T10:00:05Z');
    const taskId = await h.db.transaction().execute(async (trx) => {
      await billing.inTransaction(trx).reserve(own, 4_000, at);
      return openTask(trx, own, 4_000, at);
    });
    const inFlight = await billing.hold(teamOnly, 1_000, purpose);
    await billing.flushSettlements();

    // A key without a budget of its own has no row; its team's counts it.
    const [ownRow, teamRow] = await rowsOf([own], [teamId]);
    expect(ownRow).toMatchObject({ spent: 8_500, settled: 4_500, inFlight: 4_000, difference: 0 });
    expect(teamRow).toMatchObject({ spent: 10_200, settled: 5_200, inFlight: 5_000 });
    expect(budgetsBalance([ownRow!, teamRow!])).toBe(true);

    // The video task settles, the text hold too: nothing in flight, spent = settled exactly.
    const reservedAt = Math.floor(at.getTime() / 1000);
    await h.db.transaction().execute(async (trx) => {
      await billing.inTransaction(trx).settle(own, 4_000, 2_500, { kind: 'video' }, reservedAt);
      await trx
        .updateTable('video_tasks')
        .set({ status: 'completed' })
        .where('id', '=', taskId)
        .execute();
    });
    inFlight!.settle(600);
    await billing.drain();
    const settled = await rowsOf([own], [teamId]);
    expect(settled.map((r) => [r.spent, r.settled, r.inFlight, r.difference])).toEqual([
      [7_000, 7_000, 0, 0],
      [8_300, 8_300, 0, 0],
    ]);
  });

  it('counts a reservation in flight across midnight in the period that reserved it', async () => {
    const teamId = await team(1_000_000);
    const keyId = await key(10_000, teamId);
    const clock = { now: new Date('2026-11-28T23:59:59Z') };
    const billing = createBilling(h.db, undefined, { kind: h.kind, now: () => clock.now });
    const late = await billing.hold(keyId, 3_000, purpose);
    clock.now = new Date('2026-11-29T00:00:01Z');
    (await billing.hold(keyId, 1_000, purpose))!.settle(400); // rolls both periods over
    late!.settle(2_000); // yesterday's reservation, settled today: today's budgets do not move
    await billing.drain();
    const rows = await rowsOf([keyId], [teamId]);
    expect(rows.map((r) => [r.spent, r.settled, r.difference])).toEqual([
      [400, 400, 0],
      [400, 400, 0],
    ]);
  });

  it('reports books broken on purpose', async () => {
    const teamId = await team(1_000_000);
    const keyId = await key(50_000, teamId);
    const billing = createBilling(h.db, undefined, { kind: h.kind });
    (await billing.hold(keyId, 2_000, purpose))!.settle(1_000);
    await billing.drain();
    expect(budgetsBalance(await rowsOf([keyId], [teamId]))).toBe(true);

    // A budget that counts 300 units no usage row explains, and a team short of a charge.
    await h.db
      .updateTable('api_keys')
      .set((eb) => ({ budget_spent: eb('budget_spent', '+', 300) }))
      .where('id', '=', keyId)
      .execute();
    await h.db
      .updateTable('teams')
      .set((eb) => ({ budget_spent: eb('budget_spent', '-', 250) }))
      .where('id', '=', teamId)
      .execute();
    const rows = await rowsOf([keyId], [teamId]);
    expect(rows.map((r) => r.difference)).toEqual([300, -250]);
    expect(budgetsBalance(rows)).toBe(false);
    expect(formatBudgets(rows)).toContain('budgets do NOT balance: 2 of 2 budgets differ');
    expect(formatBudgets(rows)).toMatch(new RegExp(`^key ${keyId} .* 300$`, 'm'));
  });

  it("gives a dead instance's budgeted holds back to the budgets that counted them", async () => {
    const teamId = await team(1_000_000);
    const keyId = await key(10_000, teamId);
    const owner = `gw-budget-dead-${keyId}`;
    const registry = createInstanceRegistry(h.db, owner, { heartbeatMs: 600_000 });
    await registry.start();
    const dead = createBilling(h.db, undefined, { kind: h.kind, owner });
    const answered = await dead.hold(keyId, 3_000, purpose);
    await dead.hold(keyId, 4_000, purpose); // its request dies with the instance
    answered!.settle(1_000);
    await dead.flushSettlements();
    expect([await spent('api_keys', keyId), await spent('teams', teamId)]).toEqual([5_000, 5_000]);

    // Its heartbeat stops: a live instance returns its holds, to `used` and to both budgets.
    await h.db
      .updateTable('gateway_instances')
      .set({ heartbeat_at_ms: Date.now() - 60_000 })
      .where('id', '=', owner)
      .execute();
    await returnHolds(h.db, { expiredBeforeMs: Date.now() - 30_000 });
    expect([await spent('api_keys', keyId), await spent('teams', teamId)]).toEqual([1_000, 1_000]);
    const rows = await rowsOf([keyId], [teamId]);
    expect(rows.map((r) => [r.spent, r.settled, r.inFlight, r.difference])).toEqual([
      [1_000, 1_000, 0, 0],
      [1_000, 1_000, 0, 0],
    ]);
    const after = await h.db
      .selectFrom('api_keys')
      .select('used')
      .where('id', '=', keyId)
      .executeTakeFirstOrThrow();
    expect(Number(after.used)).toBe(1_000);
    await registry.stop();
  });

  it('charges the whole answer when a settlement arrives after its hold was returned', async () => {
    const teamId = await team(1_000_000);
    const keyId = await key(10_000, teamId);
    const owner = `gw-budget-stalled-${keyId}`;
    const stalled = createBilling(h.db, undefined, { kind: h.kind, owner });
    const hold = await stalled.hold(keyId, 4_000, purpose);
    // Never registered (or declared dead): its hold goes back, then its answer's charge arrives.
    await returnHolds(h.db, { owner });
    expect(await spent('api_keys', keyId)).toBe(0);
    hold!.settle(1_500);
    await stalled.drain();
    expect([await spent('api_keys', keyId), await spent('teams', teamId)]).toEqual([1_500, 1_500]);
    expect(budgetsBalance(await rowsOf([keyId], [teamId]))).toBe(true);
  });
});

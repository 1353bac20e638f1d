// Budget alerts: one signed `budget.threshold` webhook per (owner, period, threshold), written with
// its alert row in one transaction and sent by the callbacks deliverer to a real receiver.
import { verifyCallback } from '@modelgate/callbacks';
import { zBudgetThresholdEvent } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { createBudgetAlerts } from '../../src/budgets/index.js';
import { createDeliverer } from '../../src/callbacks/deliverer.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createKeyService } from '../../src/keys/keys.js';
import { createLogger } from '../../src/observability/logger.js';
import { type Receiver, startReceiver } from '../callbacks/receiver.js';
import { fastSettings } from '../callbacks/support.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

const log = createLogger({ level: 'error', write: () => {} });
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const DAY = 86_400;
const purpose = { kind: 'text', requestId: 'req_alert' } as const;

describe.each(eachDatabase())('budget alerts on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  async function teamWithKey(alertUrl: string | null, keyBudget: number | null) {
    const team = await h.db
      .insertInto('teams')
      .values({
        name: 'ops',
        alert_url: alertUrl,
        created_at: 0,
        budget_amount: 1_000,
        budget_period: 'day',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { record } = await createKeyService(h.db).create({ name: 'k', quota: null });
    await h.db
      .updateTable('api_keys')
      .set({
        team_id: Number(team.id),
        budget_amount: keyBudget,
        budget_period: keyBudget === null ? null : 'day',
      })
      .where('id', '=', record.id)
      .execute();
    return { teamId: Number(team.id), keyId: record.id };
  }

  /** Spends `times` × `units` on the key, counting the 402s; waits for the alerts behind them. */
  function spender(clock: { now: Date }, globalUrl: string | null) {
    const alerts = createBudgetAlerts(h.db, { url: globalUrl, secret: SECRET }, () =>
      clock.now.getTime(),
    );
    const billing = createBilling(h.db, undefined, {
      kind: h.kind,
      now: () => clock.now,
      budgetAlerts: alerts,
    });
    return async (keyId: number, units: number, times: number) => {
      let refused = 0;
      for (let i = 0; i < times; i++) {
        try {
          await billing.hold(keyId, units, purpose);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          refused++;
        }
      }
      await billing.drain();
      return refused;
    };
  }

  async function alertRows() {
    return h.db
      .selectFrom('callback_deliveries')
      .select(['payload', 'url', 'key_id'])
      .where('event_type', '=', 'budget.threshold')
      .orderBy('seq')
      .execute();
  }

  /** Runs the deliverer until the outbox is empty; the `count` POSTs the receiver got, verified. */
  async function deliverAlerts(receiver: Receiver, count: number) {
    const deliverer = createDeliverer({
      db: h.db,
      log,
      settings: fastSettings(),
      guard: { allowPrivate: true },
      alertSecret: SECRET,
    });
    while ((await deliverer.runOnce()) > 0) {}
    const got = await receiver.waitFor(count);
    const events = await Promise.all(
      got.map((r) => verifyCallback({ body: r.body, headers: r.headers, secret: SECRET })),
    );
    return events.map((event: unknown) => zBudgetThresholdEvent.parse(event).data);
  }

  it('sends one signed 80 and one 100 alert per budget and period, to the team URL', async () => {
    const receiver = await startReceiver();
    try {
      const { teamId, keyId } = await teamWithKey(receiver.url, 500);
      const clock = { now: new Date('2026-11-28T10:00:00Z') };
      const spend = spender(clock, null);
      const before = (await alertRows()).length;

      expect(await spend(keyId, 100, 3)).toBe(0); // key 300/500 (60 %), team 300/1000
      expect((await alertRows()).length).toBe(before);
      expect(await spend(keyId, 100, 1)).toBe(0); // key 400/500: 80 %
      expect(await spend(keyId, 100, 1)).toBe(0); // key 500/500: 100 %
      expect(await spend(keyId, 100, 4)).toBe(4); // refused by the key's budget, no more alerts
      const rows = await alertRows();
      const events = rows
        .slice(before)
        .map((r) => zBudgetThresholdEvent.parse(JSON.parse(r.payload)));
      expect(events.map((e) => [e.data.scope, e.data.threshold])).toEqual([
        ['key', 80],
        ['key', 100],
      ]);
      expect(events[0]!.data).toMatchObject({
        key_id: keyId,
        amount: 0.0005,
        spent: 0.0004,
        period: 'day',
        period_start: Date.parse('2026-11-28T00:00:00Z') / 1000,
        resets_at: Date.parse('2026-11-29T00:00:00Z') / 1000,
      });
      expect(rows.slice(before).every((r) => r.key_id === null && r.url === receiver.url)).toBe(
        true,
      );

      // The key's own budget lifted: the team's fills up, refused at the end.
      await h.db
        .updateTable('api_keys')
        .set({ budget_amount: null, budget_period: null })
        .where('id', '=', keyId)
        .execute();
      expect(await spend(keyId, 100, 8)).toBe(3); // team 500 → 1000, then 3 refused
      const teamEvents = (await alertRows())
        .slice(before + 2)
        .map((r) => zBudgetThresholdEvent.parse(JSON.parse(r.payload)));
      expect(teamEvents.map((e) => [e.data.scope, e.data.team_id, e.data.threshold])).toEqual([
        ['team', teamId, 80],
        ['team', teamId, 100],
      ]);

      // Delivered and signed with the alert secret.
      const delivered = await deliverAlerts(receiver, 4);
      // Sent concurrently: compared in a fixed order.
      const sent = delivered.map((data) => `${data.scope} ${data.threshold}`);
      expect(sent.sort()).toEqual(['key 100', 'key 80', 'team 100', 'team 80']);

      // A new period alerts again.
      clock.now = new Date(clock.now.getTime() + DAY * 1000);
      expect(await spend(keyId, 100, 8)).toBe(0);
      const next = (await alertRows())
        .slice(before + 4)
        .map((r) => zBudgetThresholdEvent.parse(JSON.parse(r.payload)));
      expect(next.map((e) => [e.data.threshold, e.data.period_start])).toEqual([
        [80, Date.parse('2026-11-29T00:00:00Z') / 1000],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("alerts on a video task's reservation once, in the reservation's transaction", async () => {
    const receiver = await startReceiver();
    try {
      const { teamId, keyId } = await teamWithKey(receiver.url, null);
      const clock = { now: new Date('2026-11-28T10:00:00Z') };
      const alerts = createBudgetAlerts(h.db, { url: null, secret: SECRET }, () =>
        clock.now.getTime(),
      );
      const billing = createBilling(h.db, undefined, { kind: h.kind, budgetAlerts: alerts });
      const before = (await alertRows()).length;
      const teamAlerts = async () =>
        (await alertRows())
          .slice(before)
          .map((r) => zBudgetThresholdEvent.parse(JSON.parse(r.payload)).data)
          .map((d) => [d.scope, d.team_id, d.threshold, d.spent]);
      /** A submission's transaction: the reservation, then the task insert (or its failure). */
      const submit = (units: number, fails = false) =>
        h.db.transaction().execute(async (trx) => {
          await billing.inTransaction(trx).reserve(keyId, units, clock.now);
          if (fails) throw new Error('the task insert failed');
        });

      await submit(500); // 50 %: nothing
      await expect(submit(350, true)).rejects.toThrow('the task insert failed');
      expect(await teamAlerts()).toEqual([]); // rolled back with the reservation
      await submit(350); // 85 %: the 80 % alert, committed with it
      expect(await teamAlerts()).toEqual([['team', teamId, 80, 0.00085]]);
      await submit(100); // 95 %: already written
      await expect(submit(200)).rejects.toMatchObject({ code: 'budget_exceeded' });
      await billing.drain(); // the refusal's alert is written behind, on its own
      expect(await teamAlerts()).toEqual([
        ['team', teamId, 80, 0.00085],
        ['team', teamId, 100, 0.00095],
      ]);

      const delivered = await deliverAlerts(receiver, 2);
      expect(delivered.map((data) => data.threshold).sort()).toEqual([100, 80]);
    } finally {
      await receiver.close();
    }
  });

  it('alerts once whichever instance sees the threshold first', async () => {
    const { keyId } = await teamWithKey('https://alerts.example.com/hook', null);
    const clock = { now: new Date('2026-11-28T10:00:00Z') };
    const before = (await alertRows()).length;
    const a = spender(clock, null);
    const b = spender(clock, null);
    await a(keyId, 850, 1);
    await b(keyId, 10, 1);
    await a(keyId, 10, 1);
    expect((await alertRows()).length).toBe(before + 1);
  });

  it('goes to the global URL when the team has none, and writes nothing without any URL', async () => {
    const first = await teamWithKey(null, null);
    const clock = { now: new Date('2026-11-28T10:00:00Z') };
    const before = (await alertRows()).length;
    expect(await spender(clock, null)(first.keyId, 500, 3)).toBe(1);
    expect((await alertRows()).length).toBe(before);
    const alertCount = await h.db
      .selectFrom('budget_alerts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('owner_id', '=', first.teamId)
      .where('owner_kind', '=', 'team')
      .executeTakeFirstOrThrow();
    expect(Number(alertCount.n)).toBe(0);

    const second = await teamWithKey(null, null);
    await spender(clock, 'https://ops.example.com/budget')(second.keyId, 900, 1);
    const rows = (await alertRows()).slice(before);
    expect(rows.map((r) => r.url)).toEqual(['https://ops.example.com/budget']);
  });
});

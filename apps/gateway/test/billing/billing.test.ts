import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { createKeyService } from '../../src/keys/keys.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

describe.each(eachDatabase())('billing on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  const balanceOf = async (id: number) => {
    const row = await h.db
      .selectFrom('api_keys')
      .select(['quota', 'used'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { quota: row.quota, used: row.used };
  };

  it('serves a burst of 1,000 reservations on one key with a few refills, not one per 32', async () => {
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const { record } = await createKeyService(h.db).create({ name: 'burst', quota: null });
    const billing = createBilling(h.db.withPlugin(counting), undefined, { leaseIdleMs: 0 });
    const results = await Promise.all(
      Array.from({ length: 1_000 }, () => billing.reserve(record.id, 100)),
    );
    expect(results.every(Boolean)).toBe(true);
    // The first refill covers 32; the second everything that queued behind it.
    expect(statements).toBeLessThanOrEqual(4);
  });

  it('lets exactly the covered number of 200 concurrent reservations through', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db);
    const { record } = await keys.create({ name: 'race', quota: 50 * 1_000 });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => billing.reserve(record.id, 1_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(50);
    const { quota, used } = await balanceOf(record.id);
    expect(used).toBe(quota);
    // The balance never went below zero: the database enforces it too.
    const negative = await h.db
      .selectFrom('api_keys')
      .select('id')
      .where(sql<boolean>`used > quota`)
      .execute();
    expect(negative).toHaveLength(0);
  });

  it('settles to the actual cost, capped at the balance, and records usage', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db);
    const { record } = await keys.create({ name: 'settle', quota: 10_000 });
    expect(await billing.reserve(record.id, 4_000)).toBe(true);
    expect(await billing.reserve(record.id, 4_000)).toBe(true);
    expect(await billing.reserve(record.id, 4_000)).toBe(false);

    const first = await billing.settle(record.id, 4_000, 1_500, {
      kind: 'text',
      model: 'gpt-test',
      inputTokens: 10,
      outputTokens: 20,
      requestId: 'req_a',
    });
    expect(first.charged).toBe(1_500);
    expect((await balanceOf(record.id)).used).toBe(5_500);

    // Overshoot: actual 9,000 but only 10,000 − 1,500 = 8,500 is left beside the settled amount.
    const second = await billing.settle(record.id, 4_000, 9_000, {
      kind: 'text',
      requestId: 'req_b',
    });
    expect(second.charged).toBe(8_500);
    expect((await balanceOf(record.id)).used).toBe(10_000);

    const rows = await h.db
      .selectFrom('usage')
      .selectAll()
      .where('key_id', '=', record.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.request_id, r.units, r.input_tokens, r.output_tokens])).toEqual([
      ['req_a', 1_500, 10, 20],
      ['req_b', 8_500, null, null],
    ]);
  });

  it('refunds reservations, inside a caller transaction too', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db);
    const { record } = await keys.create({ name: 'refund', quota: 1_000 });
    expect(await billing.reserve(record.id, 1_000)).toBe(true);
    await h.db.transaction().execute(async (trx) => {
      await billing.inTransaction(trx).refund(record.id, 1_000, { kind: 'video', ref: 'vt_1' });
    });
    expect((await balanceOf(record.id)).used).toBe(0);
    // A rolled-back transaction takes its refund with it.
    expect(await billing.reserve(record.id, 600)).toBe(true);
    await expect(
      h.db.transaction().execute(async (trx) => {
        await billing.inTransaction(trx).refund(record.id, 600);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await balanceOf(record.id)).used).toBe(600);
  });

  it('never limits unlimited (null quota) keys and rejects bad amounts', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db);
    const { record } = await keys.create({ name: 'admin', role: 'admin', quota: null });
    expect(await billing.reserve(record.id, 10 ** 12)).toBe(true);
    await expect(billing.reserve(record.id, -1)).rejects.toThrow(RangeError);
    await expect(billing.reserve(record.id, 1.5)).rejects.toThrow(RangeError);
  });
});

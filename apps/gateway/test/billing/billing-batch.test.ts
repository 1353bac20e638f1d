/** The group-committed (batched) paths of billing: many concurrent calls, one statement per batch. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingOptions, createBilling } from '../../src/billing/billing.js';
import { GroupCommit } from '../../src/billing/group-commit.js';
import { createKeyService } from '../../src/keys/keys.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

describe('GroupCommit', () => {
  it('batches the calls of one turn, and the calls that arrive while a batch runs', async () => {
    const batches: number[][] = [];
    let started!: () => void;
    const firstStarted = new Promise<void>((r) => {
      started = r;
    });
    const q = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      started();
      await new Promise((r) => setTimeout(r, 5));
      return items.map((i) => i * 2);
    });
    const first = [1, 2].map((i) => q.submit(i));
    await firstStarted;
    const later = [3, 4, 5].map((i) => q.submit(i));
    expect(await Promise.all([...first, ...later])).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await q.drain();
  });

  it('submitNow cuts the gather delay short for itself and what was queued before it', async () => {
    const batches: number[][] = [];
    const q = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      1,
      512,
      10_000,
    );
    const started = performance.now();
    const queued = q.submit(1);
    expect(await q.submitNow(2)).toBe(2);
    expect(await queued).toBe(1);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(batches).toEqual([[1, 2]]);
    // Back to gathering afterwards: the next plain submit waits for its timer (drain cuts it).
    const late = q.submit(3);
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toHaveLength(1);
    await q.drain();
    expect(await late).toBe(3);
  });

  it('writes a full batch at once instead of waiting out the gather delay', async () => {
    const batches: number[][] = [];
    const q = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      1,
      4,
      60_000,
    );
    // Ten items: two full batches go without the minute's gather, the last two wait for it.
    const all = Array.from({ length: 10 }, (_, i) => q.submit(i));
    await Promise.all(all.slice(0, 8));
    expect(batches).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toHaveLength(2);
    await q.drain();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(batches[2]).toEqual([8, 9]);
  });

  it('rejects every item of a failed batch and keeps serving', async () => {
    let fail = true;
    const q = new GroupCommit<number, number>(async (items) => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
      return items;
    });
    await expect(q.submit(1)).rejects.toThrow('boom');
    expect(await q.submit(2)).toBe(2);
  });
});

describe.each(eachDatabase())('batched billing on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  const usedOf = async (id: number) =>
    Number(
      (
        await h.db
          .selectFrom('api_keys')
          .select('used')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).used,
    );

  /** Billing on this database with both write-behind queues gathering for only `gatherMs`. */
  const quickBilling = (options: BillingOptions = {}, gatherMs = 1) =>
    createBilling(h.db, undefined, {
      kind: h.kind,
      settleGatherMs: gatherMs,
      usageGatherMs: gatherMs,
      ...options,
    });

  it('settles 100 concurrent requests on two keys exactly, one usage row each', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const a = (await keys.create({ name: 'a', quota: 1_000_000 })).record;
    const b = (await keys.create({ name: 'b', quota: null })).record;
    const reserved = await Promise.all(
      Array.from({ length: 100 }, (_, i) => billing.reserve(i % 2 ? a.id : b.id, 1_000)),
    );
    expect(reserved.every(Boolean)).toBe(true);
    expect(await usedOf(a.id)).toBe(50_000);
    const charged = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        billing.settle(i % 2 ? a.id : b.id, 1_000, 10 + i, {
          kind: 'text',
          requestId: `r${i}`,
          inputTokens: i,
        }),
      ),
    );
    expect(charged.map((c) => c.charged)).toEqual(Array.from({ length: 100 }, (_, i) => 10 + i));
    const expectA = Array.from({ length: 50 }, (_, j) => 10 + 2 * j + 1).reduce((x, y) => x + y);
    const expectB = Array.from({ length: 50 }, (_, j) => 10 + 2 * j).reduce((x, y) => x + y);
    expect(await usedOf(a.id)).toBe(expectA);
    expect(await usedOf(b.id)).toBe(expectB);
    const rows = await h.db
      .selectFrom('usage')
      .select(['key_id', 'units', 'request_id', 'input_tokens'])
      .where('key_id', 'in', [a.id, b.id])
      .execute();
    expect(rows).toHaveLength(100);
    for (const r of rows) {
      const i = Number(r.request_id?.slice(1));
      expect([Number(r.key_id), Number(r.units), Number(r.input_tokens)]).toEqual([
        i % 2 ? a.id : b.id,
        10 + i,
        i,
      ]);
    }
  });

  it('caps a batch that overshoots the quota, never going past it', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db, undefined, { kind: h.kind });
    const { record } = await keys.create({ name: 'tight', quota: 10_000 });
    const ok = await Promise.all(
      Array.from({ length: 10 }, () => billing.reserve(record.id, 1_000)),
    );
    expect(ok.every(Boolean)).toBe(true);
    // Every request cost twice its reservation: only 10,000 exist, so the total charge is capped.
    const charged = await Promise.all(
      Array.from({ length: 10 }, () => billing.settle(record.id, 1_000, 2_000)),
    );
    expect(charged.reduce((s, c) => s + c.charged, 0)).toBe(10_000);
    expect(await usedOf(record.id)).toBe(10_000);
    const units = await h.db
      .selectFrom('usage')
      .select('units')
      .where('key_id', '=', record.id)
      .execute();
    expect(units.reduce((s, r) => s + Number(r.units), 0)).toBe(10_000);
  });

  it('leases far from the limit, and the balance is exact again once the key is idle', async () => {
    const keys = createKeyService(h.db);
    const billing = quickBilling({ leaseIdleMs: 0 });
    const { record } = await keys.create({ name: 'lease', quota: null });
    const ok = await Promise.all(Array.from({ length: 40 }, () => billing.reserve(record.id, 500)));
    expect(ok.every(Boolean)).toBe(true);
    // In flight: the balance holds the reservations and the lease (over-stated, never under).
    expect(await usedOf(record.id)).toBeGreaterThan(40 * 500);
    await Promise.all(Array.from({ length: 40 }, (_, i) => billing.settle(record.id, 500, i, {})));
    expect(await usedOf(record.id)).toBe(
      Array.from({ length: 40 }, (_, i) => i).reduce((a, b) => a + b),
    );
    // A settlement costlier than reservation + lease goes to the balance.
    expect(await billing.reserve(record.id, 100)).toBe(true);
    const big = await billing.settle(record.id, 100, 10_000_000, {});
    expect(big.charged).toBe(10_000_000);
    await billing.drain();
    expect(await usedOf(record.id)).toBe(780 + 10_000_000);
  });

  it('writes every usage column of leased and batched rows, nulls included', async () => {
    const keys = createKeyService(h.db);
    const billing = createBilling(h.db, undefined, { kind: h.kind, leaseIdleMs: 0 });
    const leased = (await keys.create({ name: 'cols-leased', quota: null })).record;
    const capped = (await keys.create({ name: 'cols-batch', quota: 1_000_000_000 })).record;
    const full = {
      kind: 'video',
      model: 'kling-v2',
      inputTokens: 3,
      outputTokens: 7,
      seconds: 1.5,
      requestId: 'req_full',
      ref: 'task_1',
    };
    for (const id of [leased.id, capped.id]) {
      await Promise.all([billing.reserve(id, 100), billing.reserve(id, 100)]);
      await Promise.all([billing.settle(id, 100, 11, full), billing.settle(id, 100, 12, {})]);
    }
    await billing.drain();
    const rows = await h.db
      .selectFrom('usage')
      .selectAll()
      .where('key_id', 'in', [leased.id, capped.id])
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(4);
    for (const id of [leased.id, capped.id]) {
      const mine = rows.filter((r) => Number(r.key_id) === id);
      const withMeta = mine.find((r) => Number(r.units) === 11);
      const bare = mine.find((r) => Number(r.units) === 12);
      expect(withMeta).toMatchObject({ kind: 'video', model: 'kling-v2', request_id: 'req_full' });
      expect(
        [withMeta?.input_tokens, withMeta?.output_tokens, withMeta?.seconds].map(Number),
      ).toEqual([3, 7, 1.5]);
      expect(withMeta?.ref).toBe('task_1');
      expect(bare).toMatchObject({ kind: 'text', model: null, request_id: null, ref: null });
      expect([bare?.input_tokens, bare?.output_tokens, bare?.seconds]).toEqual([null, null, null]);
      expect(Number(withMeta?.created_at)).toBeGreaterThan(1_700_000_000);
    }
  });

  it("keeps an idle key's lease for leaseIdleMs, so spaced requests reserve from memory", async () => {
    const keys = createKeyService(h.db);
    const billing = quickBilling({ leaseIdleMs: 60_000 });
    const { record } = await keys.create({ name: 'linger', quota: null });
    expect(await billing.reserve(record.id, 500)).toBe(true);
    await billing.settle(record.id, 500, 200, {});
    const leased = await usedOf(record.id);
    // Idle, but the lease stays: `used` still holds it (over-stated, never under).
    expect(leased).toBeGreaterThan(200);
    // The next request is served from the lease: no statement touches the balance.
    expect(await billing.reserve(record.id, 500)).toBe(true);
    await billing.settle(record.id, 500, 300, {});
    expect(await usedOf(record.id)).toBe(leased);
    // A balance reader gives the lease back first and reads exact.
    await billing.returnIdleLease(record.id);
    expect(await usedOf(record.id)).toBe(500);
    await billing.drain();
    expect(await usedOf(record.id)).toBe(500);
  });

  it('returns an idle lease after leaseIdleMs on its own', async () => {
    const keys = createKeyService(h.db);
    const billing = quickBilling({ leaseIdleMs: 50 });
    const { record } = await keys.create({ name: 'expires', quota: null });
    expect(await billing.reserve(record.id, 500)).toBe(true);
    await billing.settle(record.id, 500, 123, {});
    expect(await usedOf(record.id)).toBeGreaterThan(123);
    await expect.poll(() => usedOf(record.id), { timeout: 5_000 }).toBe(123);
    await billing.drain();
  });

  it('two instances leasing from one key never spend more than its quota', async () => {
    const keys = createKeyService(h.db);
    const a = quickBilling();
    const b = quickBilling();
    const { record } = await keys.create({ name: 'shared', quota: 3_000_000 });
    const attempts = Array.from({ length: 4_000 }, (_, i) =>
      (i % 2 ? a : b).reserve(record.id, 1_000),
    );
    const granted = (await Promise.all(attempts)).filter(Boolean).length;
    expect(granted).toBe(3_000);
    expect(await usedOf(record.id)).toBe(3_000_000);
    await a.drain();
    await b.drain();
    expect(await usedOf(record.id)).toBe(3_000_000);
    // 4,000 reserves: 6-8 s alone, and over 30 s beside the other suites on two busy cores.
  }, 120_000);

  it('a settlement of a deleted key charges nothing and does not hold up its batch', async () => {
    const keys = createKeyService(h.db);
    const billing = quickBilling({ leaseIdleMs: 0 }, 5);
    const kept = (await keys.create({ name: 'kept', quota: null })).record;
    const gone = (await keys.create({ name: 'gone', quota: null })).record;
    expect(await billing.reserve(kept.id, 1_000)).toBe(true);
    expect(await billing.reserve(gone.id, 1_000)).toBe(true);
    await h.db.deleteFrom('api_keys').where('id', '=', gone.id).execute();
    const [ok, failed] = await Promise.allSettled([
      billing.settle(kept.id, 1_000, 700, { requestId: 'kept' }),
      billing.settle(gone.id, 1_000, 700, { requestId: 'gone' }),
    ]);
    expect(ok).toEqual({ status: 'fulfilled', value: { charged: 700 } });
    expect(failed).toEqual({ status: 'fulfilled', value: { charged: 0 } });
    expect(await usedOf(kept.id)).toBe(700);
  });
});

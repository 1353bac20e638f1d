/**
 * Quota accounting in integer units (1 credit = 1,000,000 units).
 *
 * The invariant: a key's `used` never exceeds its `quota`, whatever number of requests and
 * instances run at once. Every increase of `used` is ONE conditional UPDATE (statements.ts), so the
 * database alone enforces it (and its CHECK constraint backs it up).
 *
 * reserve → answered from this instance's lease on the key when it holds enough; otherwise one
 * statement that reserves (succeeds only if the balance covers the amount) and, while the key is far
 * from its limit (unlimited, or ≥ 64 lease sizes left), leases 32× the amount more for the next
 * requests. Near the limit no lease is granted and every reservation is its own conditional UPDATE
 * (200 concurrent reservations against a quota covering 50 → exactly 50).
 * settle → on a leased key: the reservation returns to the lease, the charge comes out of it, and
 * the usage row is written behind (batched every ~10 ms); once the key has been idle here for
 * `leaseIdleMs` its lease is returned in the same statement that writes its usage rows (at once on
 * `returnIdleLease`, which balance readers call, and on `drain`), so `used` is exact then. On other
 * keys: one statement (lock, capped charge, usage row), batched with the settlements gathered
 * meanwhile. refund → back to the lease, or one UPDATE.
 * With `trx` (video final states) every call is one statement inside the caller's transaction.
 *
 * What a crash costs (see PERFORMANCE.md): reservations and leases stay charged (the user loses at
 * most one lease per key per instance, ≤ 1/64 of the remaining balance); usage rows still queued are
 * lost, as is a charge above the reservation not yet written. Never more than the reservation in the
 * user's favour.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { GroupCommit, ItemFailure } from './group-commit.js';
import {
  recordLeased,
  refundOne,
  reserveOne,
  reserveWithLease,
  type SettleItem,
  settleBatch,
  settleOne,
  type UsageMeta,
} from './statements.js';

export type { UsageMeta } from './statements.js';

export const UNITS_PER_CREDIT = 1_000_000;

/** Credits (decimal, for the API edge) from integer units. */
export function unitsToCredits(units: number): number {
  return units / UNITS_PER_CREDIT;
}

export interface SettleResult {
  /** Units actually charged (≤ actualUnits when the balance ran out). */
  charged: number;
}

export interface Billing {
  /**
   * Atomically reserve `units`. false = not enough balance (answer 402 insufficient_quota).
   * @example if (!(await billing.reserve(key.id, 2_000))) throw insufficientQuota();
   */
  reserve(keyId: number, units: number, trx?: Transaction<DB>): Promise<boolean>;
  /**
   * Replace a reservation by the actual cost and record usage.
   * @example await billing.settle(key.id, 2_000, 1_234, undefined, { kind: 'text', model, inputTokens: 10, outputTokens: 20, requestId });
   */
  settle(
    keyId: number,
    reservedUnits: number,
    actualUnits: number,
    trx?: Transaction<DB>,
    meta?: UsageMeta,
  ): Promise<SettleResult>;
  /** Give a reservation back (failed request, cancelled task). A usage row (0 units) only with meta. */
  refund(
    keyId: number,
    reservedUnits: number,
    trx?: Transaction<DB>,
    meta?: UsageMeta,
  ): Promise<void>;
  /**
   * Gives this instance's lease on a key back to its balance now, if nobody here holds a
   * reservation on it, so that a read of `used` right after is exact. Balance readers call it.
   * @example await billing.returnIdleLease(key.id); const record = await keys.get(key.id);
   */
  returnIdleLease(keyId: number): Promise<void>;
}

function assertUnits(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
}

export interface BillingOptions {
  /** 'pglite' has one connection: one batch in flight per kind. Default 'postgres'. */
  kind?: DatabaseKind;
  /**
   * How long settlements without `trx` gather before they are written (write-behind; default 10 ms).
   * The reservation already holds the money, so the delay costs the client nothing; a crash in
   * this window loses the usage rows and leaves the reservations charged.
   */
  settleGatherMs?: number;
  /**
   * How long the usage rows of leased keys (and lease returns) gather before they are written
   * (default 50 ms). Their units already came out of the lease, so no money waits on them; a crash
   * in this window loses those rows while the balance keeps the whole lease charged. Longer than
   * `settleGatherMs` because each write has a fixed cost (≈ 0.5 ms on PGlite): at 600 sequential
   * requests/s, 50 ms makes ≈ 30 rows per statement instead of ≈ 6, and PGlite's CPU per request
   * ≈ 310 → 140 µs (PERFORMANCE.md round 4).
   */
  usageGatherMs?: number;
  /**
   * How long an idle key keeps this instance's lease before it goes back to the balance (default
   * 5,000 ms; 0 = at once). Without it a key used every few tens of ms (sequential calls, a chat
   * UI) re-leases from the database on every request: a round trip on the request path. Meanwhile
   * the key's `used` is over-stated by the lease (≤ 1/64 of its remaining balance); the balance
   * endpoint returns the lease first ({@link Billing.returnIdleLease}), so it reads exact.
   */
  leaseIdleMs?: number;
}

/** Lease size, in multiples of the reservation that needed it. */
const LEASE_CHUNK_FACTOR = 32;
/** A lease is granted only while at least this many lease sizes of balance would remain. */
const LEASE_HEADROOM = 64;

/**
 * This instance's lease on one key. `available` units are counted in the key's `used` but held by
 * no request; `holders` counts the reservations made here and not yet settled. While `leased`, the
 * key's `used` is over-stated by `available` (never under-stated); it is exact again once the key
 * is idle here and the lease has been returned.
 */
interface KeyLease {
  available: number;
  holders: number;
  leased: boolean;
  /** The last round trip granted no lease (near the limit): no point queueing behind refills. */
  exact: boolean;
  refill: Promise<unknown> | null;
  /** Returns the lease once the key has stayed idle for `leaseIdleMs`. */
  idleTimer: ReturnType<typeof setTimeout> | null;
}

type LeasedWork =
  | { keyId: number; units: number; meta: UsageMeta }
  | { keyId: number; release: true };

export function createBilling(
  db: Kysely<DB>,
  metrics?: StandardMetrics,
  options: BillingOptions = {},
): Billing & { drain(): Promise<void> } {
  const inFlight = options.kind === 'pglite' ? 1 : 4;

  const leases = new Map<number, KeyLease>();
  const leaseOf = (keyId: number) => {
    let lease = leases.get(keyId);
    if (!lease) {
      lease = {
        available: 0,
        holders: 0,
        leased: false,
        exact: false,
        refill: null,
        idleTimer: null,
      };
      leases.set(keyId, lease);
    }
    return lease;
  };
  const leaseIdleMs = options.leaseIdleMs ?? 5_000;
  const cancelIdleTimer = (lease: KeyLease) => {
    if (lease.idleTimer) clearTimeout(lease.idleTimer);
    lease.idleTimer = null;
  };
  const take = (lease: KeyLease, units: number) => {
    lease.available -= units;
    lease.holders++;
    cancelIdleTimer(lease);
    return true;
  };

  /** A reservation the lease cannot cover: one statement (a refill, or exact near the limit). */
  const reserveFromDb = async (keyId: number, units: number): Promise<boolean> => {
    const lease = leaseOf(keyId);
    // One refill per key at a time; the others wait for it and try the lease again.
    while (lease.refill && !lease.exact) {
      await lease.refill.catch(() => {});
      if (lease.available >= units) return take(lease, units);
    }
    const refill = reserveWithLease(db, keyId, units, units * LEASE_CHUNK_FACTOR, LEASE_HEADROOM);
    lease.refill = refill;
    let granted: number | null;
    try {
      granted = await refill;
    } finally {
      if (lease.refill === refill) lease.refill = null;
    }
    lease.exact = !granted;
    if (granted !== null) {
      lease.holders++;
      if (granted > 0) {
        lease.available += granted;
        lease.leased = true;
      }
      return true;
    }
    // Refused: what the lease still holds may cover the part the balance cannot.
    if (lease.available > 0 && (await reserveOne(db, keyId, units - lease.available))) {
      lease.available = 0;
      lease.holders++;
      return true;
    }
    return false;
  };

  // Usage rows of leased keys, and the return of idle leases: written behind, every few ms.
  const leasedQueue = new GroupCommit<LeasedWork, void>(
    async (items) => {
      const releases = new Map<number, number>();
      const rows: Array<{ keyId: number; units: number; meta: UsageMeta }> = [];
      for (const item of items) {
        if (!('release' in item)) {
          rows.push(item);
          continue;
        }
        const lease = leases.get(item.keyId);
        if (!lease?.leased || lease.holders > 0 || releases.has(item.keyId)) continue;
        releases.set(item.keyId, lease.available);
        lease.available = 0;
        lease.leased = false;
      }
      // A release that could not be written: the lease is still held (returned with later rows).
      const keep = (keyId: number, units: number) => {
        const lease = leaseOf(keyId);
        lease.available += units;
        lease.leased = true;
      };
      try {
        await recordLeased(db, releases, rows);
        return items.map(() => undefined);
      } catch (err) {
        if (items.length === 1) {
          for (const [keyId, units] of releases) keep(keyId, units);
          throw err;
        }
      }
      // Nothing was written. One by one, so a failing row (e.g. a deleted key) fails alone;
      // releases first, so a reader who sees a row sees its balance.
      for (const [keyId, units] of releases) {
        await recordLeased(db, new Map([[keyId, units]]), []).catch(() => keep(keyId, units));
      }
      const results: Array<undefined | ItemFailure> = [];
      for (const item of items) {
        if ('release' in item) results.push(undefined);
        else {
          results.push(
            await recordLeased(db, new Map(), [item]).then(
              () => undefined,
              (err: unknown) => new ItemFailure(err),
            ),
          );
        }
      }
      return results;
    },
    1,
    1024,
    options.usageGatherMs ?? 50,
  );

  /** Queues the return of an idle lease (the queue checks it is still idle when it writes). */
  const returnLease = (keyId: number, lease: KeyLease, now = false): Promise<void> => {
    cancelIdleTimer(lease);
    const item = { keyId, release: true } as const;
    return (now ? leasedQueue.submitNow(item) : leasedQueue.submit(item)).catch(() => {});
  };

  /** Ends one holder's reservation on a leased key; the lease goes back once the key stays idle. */
  const release = (keyId: number, lease: KeyLease) => {
    lease.holders = Math.max(0, lease.holders - 1);
    if (lease.holders > 0) return;
    if (leaseIdleMs <= 0) {
      void returnLease(keyId, lease);
      return;
    }
    cancelIdleTimer(lease);
    lease.idleTimer = setTimeout(() => {
      lease.idleTimer = null;
      if (lease.holders === 0 && lease.leased) void returnLease(keyId, lease);
    }, leaseIdleMs);
    // Never keeps the process alive: drain() returns every idle lease at shutdown.
    lease.idleTimer.unref?.();
  };

  const settleQueue = new GroupCommit<SettleItem, number>(
    async (items) => {
      if (items.length === 1) return [await settleOne(db, items[0]!)];
      let settled = new Set<number>();
      try {
        settled = await settleBatch(db, items);
      } catch {
        // nothing was applied; settle one by one
      }
      // One by one for the rest: a failing item (e.g. a deleted key) fails alone.
      const results: Array<number | ItemFailure> = [];
      for (const item of items) {
        if (settled.has(item.keyId)) results.push(item.actual);
        else results.push(await settleOne(db, item).catch((err: unknown) => new ItemFailure(err)));
      }
      return results;
    },
    inFlight,
    512,
    options.settleGatherMs ?? 10,
  );

  const countUsage = (charged: number, meta: UsageMeta) => {
    if (!metrics) return;
    const kind = meta.kind ?? 'text';
    if (charged > 0) metrics.quotaUnitsCharged.inc({ kind }, charged);
    const model = meta.model ?? 'unknown';
    if (meta.inputTokens) metrics.tokens.inc({ model, direction: 'in' }, meta.inputTokens);
    if (meta.outputTokens) metrics.tokens.inc({ model, direction: 'out' }, meta.outputTokens);
  };

  return {
    async reserve(keyId, units, trx) {
      assertUnits('units', units);
      if (trx) return reserveOne(trx, keyId, units);
      const lease = leases.get(keyId);
      if (lease && lease.available >= units) return take(lease, units);
      return reserveFromDb(keyId, units);
    },

    async settle(keyId, reservedUnits, actualUnits, trx, meta = {}) {
      assertUnits('reservedUnits', reservedUnits);
      assertUnits('actualUnits', actualUnits);
      const item: SettleItem = { keyId, reserved: reservedUnits, actual: actualUnits, meta };
      if (trx) {
        const charged = await settleOne(trx, item);
        countUsage(charged, meta);
        return { charged };
      }
      const lease = leases.get(keyId);
      let charged: number;
      if (lease?.leased && actualUnits <= reservedUnits + lease.available) {
        // The reservation (already in `used`) goes back to the lease and the charge comes out of
        // it: only the usage row is left to write.
        lease.available += reservedUnits - actualUnits;
        release(keyId, lease);
        await leasedQueue.submit({ keyId, units: actualUnits, meta });
        charged = actualUnits;
      } else if (lease?.leased) {
        // Costlier than reservation and lease together: settle all we hold against the balance.
        const held = reservedUnits + lease.available;
        lease.available = 0;
        release(keyId, lease);
        charged = await settleQueue.submit({ ...item, reserved: held });
      } else {
        if (lease) lease.holders = Math.max(0, lease.holders - 1);
        charged = await settleQueue.submit(item);
      }
      countUsage(charged, meta);
      return { charged };
    },

    async refund(keyId, reservedUnits, trx, meta) {
      assertUnits('reservedUnits', reservedUnits);
      const lease = trx ? undefined : leases.get(keyId);
      if (lease?.leased) {
        lease.available += reservedUnits;
        release(keyId, lease);
        if (meta) await leasedQueue.submit({ keyId, units: 0, meta });
        return;
      }
      if (lease) lease.holders = Math.max(0, lease.holders - 1);
      await refundOne(trx ?? db, keyId, reservedUnits, meta);
    },

    async returnIdleLease(keyId) {
      const lease = leases.get(keyId);
      // A reader waits on this: written now, with the rows queued before it.
      if (lease?.leased && lease.holders === 0) await returnLease(keyId, lease, true);
    },

    async drain() {
      // Return every idle lease, then wait for everything queued.
      for (const [keyId, lease] of leases) {
        if (lease.leased && lease.holders === 0) void returnLease(keyId, lease);
      }
      await Promise.all([leasedQueue.drain(), settleQueue.drain()]);
    },
  };
}

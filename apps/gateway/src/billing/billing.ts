/**
 * Quota accounting in integer units (1 credit = 1,000,000 units). LEDGER.md explains the design.
 *
 * The invariants:
 * - a key's `used` never exceeds its `quota`, whatever number of requests and instances run at
 *   once: every increase of `used` is ONE conditional UPDATE (statements.ts), so the database alone
 *   enforces it (and its CHECK constraint backs it up);
 * - `used` = Σ usage rows + Σ holds + open video reservations, after every statement;
 * - a charge is in this instance's journal before the response that caused it completes, and in
 *   the database soon after; a crash loses neither it nor a reservation (the holds of a dead
 *   instance are returned once its journal has been replayed).
 *
 * reserve → answered from this instance's lease on the key when it holds enough; otherwise one
 * statement that reserves (succeeds only if the balance covers the amount) and, while the key is far
 * from its limit (unlimited, or ≥ 64 lease sizes left), leases 32× the amount more for the next
 * requests; both go into this instance's hold on the key. Near the limit no lease is granted and
 * every reservation is its own conditional UPDATE (200 concurrent reservations against a quota
 * covering 50 → exactly 50).
 * settle → journaled, then written behind in batches: on a leased key the reservation returns to
 * the lease and the charge moves from the hold to a usage row; on other keys the reservation
 * leaves the hold and the capped charge is added. An idle lease goes back to the balance after
 * `leaseIdleMs`. refund → back to the lease, or released from the hold.
 * With `trx` (video tasks, whose row holds the reservation) every call is one statement inside the
 * caller's transaction, and no hold is involved.
 */
import { randomBytes } from 'node:crypto';
import { sleep } from '@modelgate/core/retry';
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { GroupCommit, ItemFailure } from './group-commit.js';
import type { Journal, JournalEntry } from './journal.js';
import {
  refundOne,
  releaseHolds,
  reserveOne,
  reserveWithLease,
  type SettleItem,
  settleBatch,
  settleOne,
  type UsageMeta,
} from './statements.js';
import { isTransientDbError } from './transient.js';

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
   * Replace a reservation by the actual cost and record usage. Without `trx` the charge is in the
   * journal when this returns its promise (synchronously), and in the database when it resolves.
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
   * Writes this instance's queued settlements now and gives its lease on the key back if nobody
   * here holds a reservation on it, so that a read of `used` right after is exact. Balance
   * readers call it.
   * @example await billing.returnIdleLease(key.id); const record = await keys.get(key.id);
   */
  returnIdleLease(keyId: number): Promise<void>;
  /**
   * The database no longer counts this instance's holds (another instance took them back after
   * missing heartbeats): drop the leases they backed.
   */
  forgetLeases(): void;
}

function assertUnits(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
}

export interface BillingOptions {
  /** 'pglite' has one connection: one batch in flight per kind. Default 'postgres'. */
  kind?: DatabaseKind;
  /**
   * How long settlements of keys without a lease (and refunds) gather before they are written
   * (default 10 ms). The reservation already holds the money and the journal the charge, so the
   * delay costs the client nothing.
   */
  settleGatherMs?: number;
  /**
   * How long the usage rows of leased keys (and lease returns) gather before they are written
   * (default 50 ms). Longer than `settleGatherMs` because each write has a fixed cost (≈ 0.5 ms on
   * PGlite): at 600 sequential requests/s, 50 ms makes ≈ 30 rows per statement instead of ≈ 6,
   * and PGlite's CPU per request ≈ 310 → 140 µs (PERFORMANCE.md round 4).
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
  /** The instance id the holds are recorded under (LEDGER.md). Default: a random id. */
  owner?: string;
  /** Where charges wait for the database; without one a crash loses those not yet written. */
  journal?: Journal;
  log?: Logger;
}

/** Lease size, in multiples of the reservation that needed it. */
const LEASE_CHUNK_FACTOR = 32;
/** A lease is granted only while at least this many lease sizes of balance would remain. */
const LEASE_HEADROOM = 64;
/** A write that fails for a reason other than an unreachable database is tried this often. */
const MAX_PERMANENT_ATTEMPTS = 5;
const MAX_RETRY_DELAY_MS = 2_000;

/**
 * This instance's lease on one key. `available` units are in the key's `used` (and in this
 * instance's hold) but held by no request; `holders` counts the reservations made here and not yet
 * settled. While `leased`, the key's `used` is over-stated by `available` (never under-stated); it
 * is exact again once the key is idle here and the lease has been returned.
 */
interface KeyLease {
  available: number;
  holders: number;
  leased: boolean;
  /** The last round trip granted no lease (near the limit): no point queueing behind refills. */
  exact: boolean;
  /** Units of the reservations waiting for the refill in flight: the next refill covers them. */
  waiting: number;
  refill: Promise<unknown> | null;
  /** Returns the lease once the key has stayed idle for `leaseIdleMs`. */
  idleTimer: ReturnType<typeof setTimeout> | null;
}

/** What the write-behind queues write: a settlement, a refund, or an idle lease's return. */
type Work =
  | { settle: SettleItem }
  | { release: number; keyId: number }
  | { returnLease: true; keyId: number };

export function createBilling(
  db: Kysely<DB>,
  metrics?: StandardMetrics,
  options: BillingOptions = {},
): Billing & { drain(): Promise<void> } {
  const inFlight = options.kind === 'pglite' ? 1 : 4;
  const owner = options.owner ?? `gw-${randomBytes(6).toString('hex')}`;
  const { journal, log } = options;

  const leases = new Map<number, KeyLease>();
  const leaseOf = (keyId: number) => {
    let lease = leases.get(keyId);
    if (!lease) {
      lease = {
        available: 0,
        holders: 0,
        leased: false,
        exact: false,
        waiting: 0,
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
      lease.waiting += units;
      await lease.refill.catch(() => {});
      lease.waiting -= units;
      if (lease.available >= units) return take(lease, units);
    }
    // Sized for what queued behind the last refill too: a burst of requests on one key (a
    // thousand streams opening at once) then takes a few round trips, not one per 32 requests.
    const chunk = Math.max(units * LEASE_CHUNK_FACTOR, lease.waiting * 2);
    const refill = reserveWithLease(db, keyId, units, chunk, LEASE_HEADROOM, owner);
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
    if (lease.available > 0 && (await reserveOne(db, keyId, units - lease.available, owner))) {
      lease.available = 0;
      lease.holders++;
      return true;
    }
    return false;
  };

  /** Settlements in one statement where they fit, the rest one by one (each fails alone). */
  const writeSettlements = async (items: SettleItem[]): Promise<Array<number | ItemFailure>> => {
    const one = (item: SettleItem) =>
      settleOne(db, item, owner).catch((err: unknown) => new ItemFailure(err));
    if (items.length <= 1) return Promise.all(items.map(one));
    let settled = new Set<number>();
    try {
      settled = await settleBatch(db, items, owner);
    } catch {
      // nothing was applied; settle one by one
    }
    const results: Array<number | ItemFailure> = [];
    for (const item of items) results.push(settled.has(item.keyId) ? item.actual : await one(item));
    return results;
  };

  /** Takes an idle lease out of memory for its return; undefined when it is no longer idle. */
  const detachIdleLease = (keyId: number): number | undefined => {
    const lease = leases.get(keyId);
    if (!lease?.leased || lease.holders > 0) return undefined;
    const units = lease.available;
    lease.available = 0;
    lease.leased = false;
    return units;
  };

  const runBatch = async (items: Work[]): Promise<Array<number | ItemFailure>> => {
    const releases = new Map<number, number>();
    const returned = new Map<number, number>();
    const settles: SettleItem[] = [];
    for (const work of items) {
      if ('settle' in work) settles.push(work.settle);
      else if ('release' in work)
        releases.set(work.keyId, (releases.get(work.keyId) ?? 0) + work.release);
      else if (!returned.has(work.keyId)) {
        const units = detachIdleLease(work.keyId);
        if (units !== undefined) returned.set(work.keyId, units);
      }
    }
    for (const [keyId, units] of returned) releases.set(keyId, (releases.get(keyId) ?? 0) + units);
    const settled = await writeSettlements(settles);
    let releaseFailure: ItemFailure | undefined;
    try {
      await releaseHolds(db, owner, releases);
    } catch (err) {
      releaseFailure = new ItemFailure(err);
      // Not written: the leases are still held here (returned with a later batch).
      for (const [keyId, units] of returned) {
        const lease = leaseOf(keyId);
        lease.available += units;
        lease.leased = true;
      }
    }
    let next = 0;
    return items.map((work) => {
      if ('settle' in work) return settled[next++]!;
      return 'release' in work && releaseFailure ? releaseFailure : 0;
    });
  };

  const leasedQueue = new GroupCommit<Work, number>(runBatch, 1, 1024, options.usageGatherMs ?? 50);
  const settleQueue = new GroupCommit<Work, number>(
    runBatch,
    inFlight,
    512,
    options.settleGatherMs ?? 10,
  );

  /**
   * Writes one piece of work, retrying while the database is unreachable (a restart, a failover):
   * the journal entry is done only once the database has it. A write that keeps failing for
   * another reason stays in the journal, for the next start to replay.
   */
  const persist = async (
    queue: GroupCommit<Work, number>,
    work: Work,
    entry?: JournalEntry,
  ): Promise<number> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await queue.submit(work);
        entry?.done();
        return result;
      } catch (err) {
        if (!isTransientDbError(err) && attempt >= MAX_PERMANENT_ATTEMPTS) throw err;
        if (attempt === 1) log?.warn('billing write failed; retrying', { err, owner });
        await sleep(Math.min(MAX_RETRY_DELAY_MS, 25 * 2 ** attempt));
      }
    }
  };

  /** Queues the return of an idle lease (the batch checks it is still idle when it writes). */
  const returnLease = (keyId: number, lease: KeyLease, now = false): Promise<void> => {
    cancelIdleTimer(lease);
    const work: Work = { returnLease: true, keyId };
    const queued = leasedQueue.submit(work);
    if (now) void leasedQueue.flush();
    return queued.then(
      () => undefined,
      () => undefined,
    );
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

  /**
   * Decides, synchronously, what a settlement takes from the hold and which queue writes it, and
   * updates the lease to match.
   */
  const planSettlement = (
    keyId: number,
    reserved: number,
    actual: number,
    meta: UsageMeta,
  ): { item: SettleItem; queue: GroupCommit<Work, number> } => {
    const lease = leases.get(keyId);
    if (lease?.leased && actual <= reserved + lease.available) {
      // The reservation returns to the lease and the charge comes out of it: in the database the
      // charge just moves from the hold to a usage row.
      lease.available += reserved - actual;
      release(keyId, lease);
      return { item: { keyId, reserved: actual, actual, meta }, queue: leasedQueue };
    }
    if (lease?.leased) {
      // Costlier than reservation and lease together: settle all we hold against the balance.
      const held = reserved + lease.available;
      lease.available = 0;
      release(keyId, lease);
      return { item: { keyId, reserved: held, actual, meta }, queue: settleQueue };
    }
    if (lease) lease.holders = Math.max(0, lease.holders - 1);
    return { item: { keyId, reserved, actual, meta }, queue: settleQueue };
  };

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
      if (trx) {
        const charged = await settleOne(trx, {
          keyId,
          reserved: reservedUnits,
          actual: actualUnits,
          meta,
        });
        countUsage(charged, meta);
        return { charged };
      }
      const { item, queue } = planSettlement(keyId, reservedUnits, actualUnits, meta);
      // Before the first await: in the journal when the caller goes on to answer the client.
      const entry = journal?.append(item);
      const charged = await persist(queue, { settle: { ...item, entryId: entry?.id } }, entry);
      countUsage(charged, meta);
      return { charged };
    },

    async refund(keyId, reservedUnits, trx, meta) {
      assertUnits('reservedUnits', reservedUnits);
      if (trx) {
        await refundOne(trx, keyId, reservedUnits, meta);
        return;
      }
      const lease = leases.get(keyId);
      if (lease?.leased) {
        lease.available += reservedUnits;
        release(keyId, lease);
      } else {
        if (lease) lease.holders = Math.max(0, lease.holders - 1);
        await persist(settleQueue, { release: reservedUnits, keyId });
      }
      if (meta) {
        const item: SettleItem = { keyId, reserved: 0, actual: 0, meta };
        await persist(leasedQueue, { settle: item });
      }
    },

    async returnIdleLease(keyId) {
      // A reader waits on this: everything queued before it is written now.
      await Promise.all([settleQueue.flush(), leasedQueue.flush()]);
      const lease = leases.get(keyId);
      if (lease?.leased && lease.holders === 0) await returnLease(keyId, lease, true);
    },

    forgetLeases() {
      for (const lease of leases.values()) {
        cancelIdleTimer(lease);
        lease.available = 0;
        lease.leased = false;
      }
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

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
 * Features charge through `hold` (hold.ts), which wraps reserve → settle | refund, exactly once.
 * Video's task row holds its reservation instead: `inTransaction(trx)` makes each call one statement
 * inside the caller's transaction, and no lease or journal is involved.
 *
 * This module is the API; the leases live in leases.ts, the budgeted reservations (no lease) in
 * budgeted.ts, video's in-transaction charges in in-transaction.ts, the batched writes in
 * write-behind.ts and the SQL in statements.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { BudgetAlerts } from '../budgets/alerts.js';
import type { BudgetRefusal } from '../budgets/levels.js';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { assertUnits } from './assert-units.js';
import { budgetExceeded } from './budget-refusal.js';
import { BudgetedReservations, type Reservation, UNBUDGETED } from './budgeted.js';
import { BackgroundWrites, Hold, type HoldPurpose } from './hold.js';
import {
  type SettleResult,
  type TransactionCharges,
  transactionCharges,
} from './in-transaction.js';
import type { Journal } from './journal.js';
import { LeaseBook } from './leases.js';
import { BUDGETED, type SettleItem, type UsageMeta } from './statements.js';
import { countUsage } from './usage-metrics.js';
import { WriteBehind } from './write-behind.js';

export type { Hold, HoldPurpose, HoldUsage } from './hold.js';
export type { SettleResult, TransactionCharges } from './in-transaction.js';
export type { UsageMeta } from './statements.js';

export const UNITS_PER_CREDIT = 1_000_000;

/** Credits (decimal, for the API edge) from integer units. */
export function unitsToCredits(units: number): number {
  return units / UNITS_PER_CREDIT;
}

/**
 * Credits → quota units, for the price tables.
 *
 * @example
 * credits(0.05); // 50000
 */
export function credits(amount: number): number {
  return Math.round(amount * UNITS_PER_CREDIT);
}

export interface Billing {
  /**
   * The one way a request charges: reserves `units` (its worst case) and returns the hold to
   * settle or refund exactly once; null when the balance cannot cover it (402 insufficient_quota).
   * @example
   * const hold = await billing.hold(key.id, 2_000, { kind: 'image', requestId, model: 'dall-e-3' });
   * if (!hold) throw insufficientQuota();
   * // … answer …
   * hold.settle(1_234, { inputTokens: 10, outputTokens: 20 });
   */
  hold(keyId: number, units: number, purpose: HoldPurpose): Promise<Hold | null>;
  /**
   * Video's in-transaction charge (see {@link TransactionCharges}).
   * @example await db.transaction().execute((trx) => billing.inTransaction(trx).settle(keyId, 5_000, 4_000, meta));
   */
  inTransaction(trx: Transaction<DB>): TransactionCharges;
  /**
   * Atomically reserve `units` from this instance's lease or the balance. false = not enough
   * balance. The ledger's primitive under {@link Billing.hold}; features use `hold`.
   */
  reserve(keyId: number, units: number): Promise<boolean>;
  /**
   * Replace a reservation by the actual cost and record usage: in the journal when this returns
   * its promise (synchronously), in the database when it resolves. `budgetAt` is a budgeted
   * reservation's stamp (its hold's): the budgets get `reserved − actual` back. Under
   * {@link Billing.hold}.
   */
  settle(
    keyId: number,
    reservedUnits: number,
    actualUnits: number,
    meta?: UsageMeta,
    budgetAt?: number | null,
  ): Promise<SettleResult>;
  /**
   * Give a reservation back. A usage row (0 units) only with meta, or for a budgeted reservation
   * (`budgetAt`), which is refunded as a journaled settlement of 0 so that the budgets get it back
   * exactly once. Under {@link Billing.hold}.
   */
  refund(
    keyId: number,
    reservedUnits: number,
    meta?: UsageMeta,
    budgetAt?: number | null,
  ): Promise<void>;
  /**
   * Writes this instance's queued settlements now and gives its lease on the key back if nobody
   * here holds a reservation on it, so that a read of `used` right after is exact. Balance
   * readers call it.
   * @example await billing.returnIdleLease(key.id); const record = await keys.get(key.id);
   */
  returnIdleLease(keyId: number): Promise<void>;
  /**
   * Writes this instance's queued settlements now, so that usage rows read right after include
   * every charge whose response has completed here.
   * @example await billing.flushSettlements(); const report = await usageReport(db, query, now);
   */
  flushSettlements(): Promise<void>;
  /**
   * Writes this instance's queued settlements and gives back every lease it holds idle, so that
   * `used` read right after is exact as far as this instance goes. Key listings call it.
   * @example await billing.returnIdleLeases(); const page = await listKeys(db, query, now);
   */
  returnIdleLeases(): Promise<void>;
  /**
   * The database no longer counts this instance's holds (another instance took them back after
   * missing heartbeats): drop the leases they backed.
   */
  forgetLeases(): void;
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
  /** The IANA zone budget periods start in (MODELGATE_BUDGET_TIME_ZONE). Default UTC. */
  budgetTimeZone?: string;
  /**
   * Writes budget alerts for reservations that leave a budget at or above 80 % (or are refused by
   * one): behind the request, or in the transaction of a video task's reservation; without it no
   * alert is written.
   */
  budgetAlerts?: BudgetAlerts;
  /** The clock budgets' periods are read from (tests move it across a period's end). */
  now?: () => Date;
  log?: Logger;
}

/**
 * Billing on a database: reservations from this instance's leases ({@link LeaseBook}), charges
 * journaled and written behind in batches ({@link WriteBehind}).
 *
 * @example
 * const billing = createBilling(db, metrics, { kind: 'postgres', journal });
 * const hold = await billing.hold(key.id, 2_000, { kind: 'text', requestId, model: 'gpt-4o-mini' });
 * hold?.settle(1_234, { inputTokens: 10, outputTokens: 20 });
 */
export function createBilling(
  db: Kysely<DB>,
  metrics?: StandardMetrics,
  options: BillingOptions = {},
): Billing & { drain(): Promise<void> } {
  const owner = options.owner ?? `gw-${randomBytes(6).toString('hex')}`;
  const { journal } = options;
  const leases = new LeaseBook(db, owner, {
    idleMs: options.leaseIdleMs ?? 5_000,
    onIdle: (keyId) => void writes.returnLease(keyId),
  });
  const writes = new WriteBehind(db, owner, leases, {
    kind: options.kind,
    balanceGatherMs: options.settleGatherMs ?? 10,
    usageGatherMs: options.usageGatherMs ?? 50,
    log: options.log,
  });

  const holdWrites = new BackgroundWrites(options.log);
  const now = options.now ?? (() => new Date());
  const budgeted = new BudgetedReservations(db, {
    owner,
    timeZone: options.budgetTimeZone ?? 'UTC',
    now,
    alerts: options.budgetAlerts,
    writes: holdWrites,
    leases,
  });

  /** From the lease, or, for a key a budget binds, the budgets' statements (no lease). */
  const reserveFor = async (
    keyId: number,
    units: number,
  ): Promise<Reservation | BudgetRefusal | null> => {
    const got = await leases.reserve(keyId, units);
    if (got !== BUDGETED) return got ? UNBUDGETED : null;
    return budgeted.reserve(keyId, units);
  };

  /** A budgeted settlement: journaled, then written on its own (it moves the budgets too). */
  const settleBudgeted = async (item: SettleItem): Promise<number> => {
    const entry = journal?.append(item);
    return writes.persist('balance', { settle: { ...item, entryId: entry?.id } }, entry);
  };

  const billing: Billing & { drain(): Promise<void> } = {
    async hold(keyId, units, purpose) {
      assertUnits('units', units);
      const reserved = await reserveFor(keyId, units);
      if (reserved === null) return null;
      if (!('budgetAt' in reserved)) throw budgetExceeded(reserved);
      return new Hold(billing, holdWrites, keyId, units, purpose, reserved.budgetAt);
    },

    inTransaction: (trx) => transactionCharges(trx, budgeted, now, metrics),

    async reserve(keyId, units) {
      assertUnits('units', units);
      const reserved = await reserveFor(keyId, units);
      return reserved !== null && 'budgetAt' in reserved;
    },

    async settle(keyId, reservedUnits, actualUnits, meta = {}, budgetAt = null) {
      assertUnits('reservedUnits', reservedUnits);
      assertUnits('actualUnits', actualUnits);
      if (budgetAt !== null) {
        const item = { keyId, reserved: reservedUnits, actual: actualUnits, meta, budgetAt };
        const charged = await settleBudgeted(item);
        countUsage(metrics, charged, meta);
        return { charged };
      }
      const { item, leased } = leases.planSettlement(keyId, reservedUnits, actualUnits, meta);
      // Before the first await: in the journal when the caller goes on to answer the client.
      const entry = journal?.append(item);
      const work = { settle: { ...item, entryId: entry?.id } };
      const charged = await writes.persist(leased ? 'usage' : 'balance', work, entry);
      countUsage(metrics, charged, meta);
      return { charged };
    },

    async refund(keyId, reservedUnits, meta, budgetAt = null) {
      assertUnits('reservedUnits', reservedUnits);
      if (budgetAt !== null) {
        await settleBudgeted({
          keyId,
          reserved: reservedUnits,
          actual: 0,
          meta: meta ?? {},
          budgetAt,
        });
        return;
      }
      if (!leases.refund(keyId, reservedUnits)) {
        await writes.persist('balance', { release: reservedUnits, keyId });
      }
      if (meta) {
        const item: SettleItem = { keyId, reserved: 0, actual: 0, meta };
        await writes.persist('usage', { settle: item });
      }
    },

    flushSettlements() {
      return writes.flush();
    },

    async returnIdleLeases() {
      await writes.flush();
      await Promise.all(leases.claimAllIdle().map((keyId) => writes.returnLease(keyId, true)));
    },

    async returnIdleLease(keyId) {
      // A reader waits on this: everything queued before it is written now.
      await writes.flush();
      if (leases.claimIdle(keyId)) await writes.returnLease(keyId, true);
    },

    forgetLeases() {
      leases.forget();
    },

    async drain() {
      // The holds' writes first (each queues its statement), then every idle lease, then the queue.
      await holdWrites.drain();
      for (const keyId of leases.claimAllIdle()) void writes.returnLease(keyId);
      await writes.drain();
    },
  };
  return billing;
}

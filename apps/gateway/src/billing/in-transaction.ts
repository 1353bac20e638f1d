/**
 * Video's charges: one statement each inside the caller's transaction. The task row holds the
 * reservation, so no lease, hold or journal is involved; a budgeted reservation's alerts are
 * written in the same transaction (budgeted.ts).
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { assertUnits } from './assert-units.js';
import type { BudgetedReservations } from './budgeted.js';
import { refundOne, settleOne, type UsageMeta } from './statements.js';
import { countUsage } from './usage-metrics.js';

export interface SettleResult {
  /** Units actually charged (≤ actualUnits when the balance ran out). */
  charged: number;
}

/** `billing.inTransaction(trx)`: video's reserve, settle and refund. */
export interface TransactionCharges {
  /**
   * Reserve `units` against the quota and the key's and its team's budgets, as at `at` (default
   * now); false = not enough balance. A spent budget throws the 402 `budget_exceeded` ApiError
   * (the caller's transaction then rolls back).
   */
  reserve(keyId: number, units: number, at?: Date): Promise<boolean>;
  /**
   * Replace a reservation by the actual cost and record usage; `reservedAt` (Unix seconds, the
   * reservation's instant) gives the unused part back to the budgets of the period that reserved.
   */
  settle(
    keyId: number,
    reservedUnits: number,
    actualUnits: number,
    meta: UsageMeta,
    reservedAt?: number,
  ): Promise<SettleResult>;
  /** Give a reservation back; with meta a usage row (0 units) records it. */
  refund(
    keyId: number,
    reservedUnits: number,
    meta?: UsageMeta,
    reservedAt?: number,
  ): Promise<void>;
}

/**
 * @example
 * const charges = transactionCharges(trx, budgeted, () => new Date(), metrics);
 * if (!(await charges.reserve(keyId, 5_000))) throw insufficientQuota();
 */
export function transactionCharges(
  trx: Transaction<DB>,
  budgeted: BudgetedReservations,
  now: () => Date,
  metrics: StandardMetrics | undefined,
): TransactionCharges {
  return {
    reserve: (keyId, units, at) => {
      assertUnits('units', units);
      return budgeted.reserveIn(trx, keyId, units, at ?? now());
    },
    settle: async (keyId, reservedUnits, actualUnits, meta, reservedAt) => {
      assertUnits('reservedUnits', reservedUnits);
      assertUnits('actualUnits', actualUnits);
      const item = { keyId, reserved: reservedUnits, actual: actualUnits, meta };
      const charged = await settleOne(trx, { ...item, budgetAt: reservedAt ?? null });
      countUsage(metrics, charged, meta);
      return { charged };
    },
    refund: async (keyId, reservedUnits, meta, reservedAt) => {
      assertUnits('reservedUnits', reservedUnits);
      if (reservedAt === undefined) return refundOne(trx, keyId, reservedUnits, meta);
      const item = { keyId, reserved: reservedUnits, actual: 0, meta: meta ?? {} };
      await settleOne(trx, { ...item, budgetAt: reservedAt });
    },
  };
}

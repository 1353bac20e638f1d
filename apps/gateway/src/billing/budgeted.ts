/**
 * The budgeted reservation path, beside the leases (leases.ts): a key that a budget binds (its own,
 * or its team's) takes no lease, so each of its reservations is budgets/reserve.ts's conditional
 * UPDATEs, which also put the units in this instance's hold. The levels a reservation leaves the
 * budgets at go to the budget alerts; a refusal comes back as the budget that refused.
 */
import type { Kysely, Transaction } from 'kysely';
import type { BudgetAlerts } from '../budgets/alerts.js';
import type { BudgetRefusal } from '../budgets/levels.js';
import { type BudgetedReservation, reserveBudgeted } from '../budgets/reserve.js';
import type { DB } from '../db/schema.js';
import { budgetExceeded } from './budget-refusal.js';
import type { BackgroundWrites } from './hold.js';
import type { LeaseBook } from './leases.js';

/** A reservation made: `budgetAt` stamps one that a budget counted (budgets/reserve.ts). */
export interface Reservation {
  budgetAt: number | null;
}

export const UNBUDGETED: Reservation = Object.freeze({ budgetAt: null });

export interface BudgetedOptions {
  /** The instance whose hold the units go into. */
  owner: string;
  /** The IANA zone budget periods start in. */
  timeZone: string;
  now: () => Date;
  /** Without them no alert is written. */
  alerts?: BudgetAlerts;
  /** Where alerts written behind a request run (shutdown waits for them). */
  writes: BackgroundWrites;
  /** Told when a key is no longer budgeted, so it leases again. */
  leases: LeaseBook;
}

/** The levels a reservation's outcome calls an alert for: past 80 %, or the refusing budget. */
function alertLevels(result: BudgetedReservation) {
  if (result.ok) return result.levels;
  return result.refusal !== 'quota' && result.refusal.level ? [result.refusal.level] : [];
}

/**
 * @example
 * const budgeted = new BudgetedReservations(db, { owner, timeZone: 'UTC', now, writes, leases });
 * const reserved = await budgeted.reserve(keyId, 2_000); // { budgetAt }, a BudgetRefusal, or null
 */
export class BudgetedReservations {
  /** Keys whose team had a budget at their last reservation: they go straight to the transaction. */
  private readonly teamBudgeted = new Set<number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: BudgetedOptions,
  ) {}

  /**
   * Reserves `units` for a key the lease book reported budgeted, into this instance's hold; null
   * when the quota refused, the refusing budget when one did. Alerts are written behind.
   */
  async reserve(keyId: number, units: number): Promise<Reservation | BudgetRefusal | null> {
    const { owner, timeZone, now, leases } = this.options;
    const hint = this.teamBudgeted.has(keyId);
    const result = await reserveBudgeted(this.db, keyId, units, owner, now(), timeZone, hint);
    this.alertBehind(result);
    if (!result.ok) return result.refusal === 'quota' ? null : result.refusal;
    if (!result.budgeted) leases.setBudgeted(keyId, false);
    if (result.team) this.teamBudgeted.add(keyId);
    else this.teamBudgeted.delete(keyId);
    return { budgetAt: result.at };
  }

  /**
   * Video's reservation, inside the caller's transaction, as at `at`: false when the quota refused;
   * a spent budget throws the 402 `budget_exceeded` (the transaction then rolls back). The alerts
   * of a reservation are written in the same transaction, so they commit with it, exactly once;
   * a refusal's alert is written behind, on its own (the transaction it came in rolls back).
   */
  async reserveIn(trx: Transaction<DB>, keyId: number, units: number, at: Date): Promise<boolean> {
    const result = await reserveBudgeted(trx, keyId, units, null, at, this.options.timeZone);
    if (result.ok) {
      if (result.levels.length > 0) await this.options.alerts?.recordIn(trx, result.levels);
      return true;
    }
    this.alertBehind(result);
    if (result.refusal === 'quota') return false;
    throw budgetExceeded(result.refusal);
  }

  /** Hands the levels past 80 % (or refused) to the alerts, behind the request. */
  private alertBehind(result: BudgetedReservation): void {
    const { alerts, writes } = this.options;
    const levels = alertLevels(result);
    if (alerts && levels.length > 0) writes.track(alerts.record(levels), 'budget alert', '');
  }
}

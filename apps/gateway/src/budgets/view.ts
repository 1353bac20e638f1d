/**
 * A stored budget as it stands now: the stored period while it lasts, else the period containing
 * `now` with nothing spent yet (the row rolls over at its next reservation, not on a clock).
 */
import type { BudgetPeriod } from './period.js';
import { periodBounds } from './period.js';

/** A budget's columns on a key or team row, read as numbers (Unix seconds, units). */
export interface StoredBudget {
  amount: number;
  period: BudgetPeriod;
  spent: number;
  periodStart: number | null;
  periodEnd: number | null;
}

/** A budget's current period: what it has spent and when it resets (Unix seconds, units). */
export interface CurrentBudget {
  amount: number;
  period: BudgetPeriod;
  spent: number;
  periodStart: number;
  resetsAt: number;
}

/** The budget columns of a row as a StoredBudget; null without a budget. */
export function storedBudget(row: {
  budget_amount: number | string | null;
  budget_period: BudgetPeriod | null;
  budget_spent: number | string;
  budget_period_start: number | string | null;
  budget_period_end: number | string | null;
}): StoredBudget | null {
  if (row.budget_amount === null || row.budget_period === null) return null;
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    amount: Number(row.budget_amount),
    period: row.budget_period,
    spent: Number(row.budget_spent),
    periodStart: num(row.budget_period_start),
    periodEnd: num(row.budget_period_end),
  };
}

/**
 * @example
 * currentBudget({ amount: 5, period: 'day', spent: 3, periodStart: 0, periodEnd: 86_400 }, 90_000, 'UTC');
 * // { amount: 5, period: 'day', spent: 0, periodStart: 86400, resetsAt: 172800 }
 */
export function currentBudget(
  budget: StoredBudget,
  nowSeconds: number,
  timeZone: string,
): CurrentBudget {
  const { amount, period } = budget;
  if (budget.periodStart !== null && budget.periodEnd !== null && nowSeconds < budget.periodEnd) {
    return {
      amount,
      period,
      spent: budget.spent,
      periodStart: budget.periodStart,
      resetsAt: budget.periodEnd,
    };
  }
  const bounds = periodBounds(period, new Date(nowSeconds * 1000), timeZone);
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  return {
    amount,
    period,
    spent: 0,
    periodStart: seconds(bounds.start),
    resetsAt: seconds(bounds.end),
  };
}

/**
 * What a budgeted reservation reports about the budgets it met: the level each stands at (for
 * alerts) and, when one refused, which (for the 402).
 */
import type { BudgetPeriod } from './period.js';

/** Which budget refused a reservation, for the 402's message (amounts in units). */
export interface BudgetRefusal {
  scope: 'key' | 'team';
  /** The key's or the team's id. */
  id: number;
  amount: number;
  period: BudgetPeriod;
  /** When the refusing period ends (Unix seconds). */
  resetsAt: number;
  /** The refusing budget as it stood, for its 100 % alert. */
  level?: BudgetLevel;
}

/**
 * A budget's state right after a reservation (or a refusal): what budget alerts are decided from,
 * read off the row the reservation already returned (units, Unix seconds).
 */
export interface BudgetLevel {
  scope: 'key' | 'team';
  /** The key's or the team's id. */
  id: number;
  /** The team whose alert URL a key's alerts go to (the team itself for scope `team`). */
  teamId: number | null;
  amount: number;
  spent: number;
  period: BudgetPeriod;
  periodStart: number;
  resetsAt: number;
  /** True when a reservation was refused for this budget: it is spent. */
  refused: boolean;
}

/** Levels worth an alert: at or above 80 % of the amount (4/5, in integers). */
export function alertable(level: BudgetLevel): boolean {
  return level.refused || level.spent * 5 >= level.amount * 4;
}

// `--budget CREDITS/PERIOD`, as `keys set` and `teams create|set` take it.
import type { BudgetSetting } from '@modelgate/core';
import { creditsToUnits, positiveNumber } from './numbers.js';

/** What a `--budget` that cannot be read is told. */
export const BUDGET_HINT =
  '--budget must be credits per day, week or month (5/day, 100/month), or none';

/**
 * `CREDITS/PERIOD` as a budget in units; `none` removes it (null); `undefined` when unreadable.
 *
 * @example
 * ```ts
 * budgetOrNone('5/day'); // → { amount: 5_000_000, period: 'day' }
 * ```
 */
export function budgetOrNone(text: string): BudgetSetting | null | undefined {
  if (text === 'none') return null;
  const [credits, period, extra] = text.split('/');
  const amount = credits === undefined ? undefined : positiveNumber(credits);
  if (amount === undefined || extra !== undefined) return undefined;
  if (period !== 'day' && period !== 'week' && period !== 'month') return undefined;
  return { amount: creditsToUnits(amount), period };
}

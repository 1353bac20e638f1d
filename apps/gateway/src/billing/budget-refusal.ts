/**
 * A budget's refusal as the 402 a client sees: code `budget_exceeded` (quota exhaustion stays
 * `insufficient_quota`), a message naming the budget, its amount, period and reset time, and the
 * same facts in the error's `budget` field.
 */
import type { BudgetRefusal } from '../budgets/levels.js';
import { ApiError } from '../errors/api-error.js';

const UNITS_PER_CREDIT = 1_000_000;

/** ISO 8601 in UTC, whole seconds: `2026-11-29T00:00:00Z`. */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * @example
 * throw budgetExceeded({ scope: 'key', id: 7, amount: 50_000, period: 'day', resetsAt: 1796083200 });
 * // 402 budget_exceeded: "This key's budget of 0.05 credits per day is spent; it resets at …"
 */
export function budgetExceeded(refusal: BudgetRefusal): ApiError {
  const credits = refusal.amount / UNITS_PER_CREDIT;
  const owner = refusal.scope === 'key' ? "This key's" : `Team ${refusal.id}'s`;
  const resetsAt = isoSeconds(refusal.resetsAt);
  return new ApiError(
    402,
    'insufficient_quota',
    `${owner} budget of ${credits} credits per ${refusal.period} is spent; it resets at ${resetsAt}.`,
    {
      code: 'budget_exceeded',
      details: {
        budget: {
          scope: refusal.scope,
          ...(refusal.scope === 'team' ? { team_id: refusal.id } : {}),
          amount: credits,
          period: refusal.period,
          resets_at: resetsAt,
        },
      },
    },
  );
}

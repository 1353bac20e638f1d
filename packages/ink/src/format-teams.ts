// Teams and budgets as `modelgate teams …`, `modelgate budget` and `modelgate balance` print them.
import type { BalanceBudget, KeyBudget, Team } from '@modelgate/core';
import { layoutColumns } from './columns.js';
import { formatCredits } from './format.js';
import { unitsToCredits } from './numbers.js';

/** When a period ends, as ISO 8601 UTC to the minute: `2026-11-29T00:00Z`. */
function resetTime(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 16)}Z`;
}

/**
 * A budget in credits as one phrase: `1.25/5 credits this day, resets 2026-11-29T00:00Z`.
 *
 * @example
 * ```ts
 * budgetPhrase({ amount: 5, period: 'day', spent: 1.25, available: 3.75, resets_at: 1795910400 });
 * ```
 */
export function budgetPhrase(
  budget: Pick<BalanceBudget, 'amount' | 'period' | 'spent' | 'resets_at'>,
): string {
  return `${formatCredits(budget.spent)}/${formatCredits(budget.amount)} credits this ${budget.period}, resets ${resetTime(budget.resets_at)}`;
}

/** A key's or team's budget (in units, as the key and team objects carry it) in credits. */
export function unitBudgetPhrase(budget: KeyBudget): string {
  return budgetPhrase({
    ...budget,
    amount: unitsToCredits(budget.amount),
    spent: unitsToCredits(budget.spent),
  });
}

/**
 * Teams one a line: `id  name  N keys  budget`, in columns on a terminal (`aligned`).
 *
 * @example
 * ```ts
 * formatTeamLines(list.data, false); // → ['3  research  2 keys  0.5/5 credits this day, resets …']
 * ```
 */
export function formatTeamLines(teams: readonly Team[], aligned: boolean): string[] {
  const rows = teams.map((team) => [
    String(team.id),
    team.name,
    `${team.keys} ${team.keys === 1 ? 'key' : 'keys'}`,
    team.budget ? unitBudgetPhrase(team.budget) : 'no budget',
  ]);
  return layoutColumns(rows, { aligned, right: [0] });
}

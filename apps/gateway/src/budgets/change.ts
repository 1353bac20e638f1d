/** How a budget setting becomes the columns of the row that carries it (a key or a team). */
import type { BudgetSetting } from '@modelgate/core';
import { sql } from 'kysely';

/**
 * The SET list of a budget change, the same on `api_keys` and `teams`: a new amount keeps what the
 * period has spent; a period that changes (or goes) starts again from zero. `undefined` (the field
 * left out of the request) changes nothing.
 *
 * @example
 * await db.updateTable('teams').set({ name, ...budgetChange(body.budget) }).where('id', '=', id).execute();
 */
export function budgetChange(budget: BudgetSetting | null | undefined) {
  if (budget === undefined) return {};
  const period = budget?.period ?? null;
  const same = sql<boolean>`budget_period is not distinct from ${period}::text`;
  return {
    budget_amount: budget?.amount ?? null,
    budget_period: period,
    budget_spent: sql<number>`case when ${same} then budget_spent else 0 end`,
    budget_period_start: sql<number | null>`case when ${same} then budget_period_start end`,
    budget_period_end: sql<number | null>`case when ${same} then budget_period_end end`,
  };
}

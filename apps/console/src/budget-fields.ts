// A budget as typed into the console: an amount in credits and a period, or no period for none.
// The API takes and gives quota units (1 credit = 1,000,000 units), as for `quota`.
import type { BudgetPeriod, BudgetSetting, KeyBudget } from '@modelgate/core';
import { UNITS_PER_CREDIT } from './format.js';

export interface BudgetFields {
  /** Credits per period, as typed. */
  amount: string;
  /** '' = no budget. */
  period: BudgetPeriod | '';
}

/** The fields showing a key's or team's budget (empty when it has none). */
export function budgetFieldsOf(budget: KeyBudget | null | undefined): BudgetFields {
  return budget
    ? { amount: String(budget.amount / UNITS_PER_CREDIT), period: budget.period }
    : { amount: '', period: '' };
}

/** The budget to send: null when no period is chosen; the amount rounded to whole units. */
export function budgetSettingOf(fields: BudgetFields): BudgetSetting | null {
  if (fields.period === '') return null;
  return {
    amount: Math.round(Number(fields.amount || '0') * UNITS_PER_CREDIT),
    period: fields.period,
  };
}

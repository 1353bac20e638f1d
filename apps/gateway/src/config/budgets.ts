/**
 * Budgets: the IANA time zone whose local midnight starts every budget period (a day, a week from
 * Monday, a month from the 1st). MODELGATE_BUDGET_TIME_ZONE, default UTC.
 */
import { z } from 'zod';
import { isTimeZone } from '../budgets/index.js';
import { variable } from './section.js';

export interface BudgetSettings {
  /** MODELGATE_BUDGET_TIME_ZONE: an IANA name such as `Europe/Paris`; `UTC` by default. */
  timeZone: string;
}

export const budgetVariables = {
  MODELGATE_BUDGET_TIME_ZONE: variable
    .text()
    .refine((zone) => zone === undefined || isTimeZone(zone), {
      error: 'an IANA time zone such as Europe/Paris',
    }),
};

export const budgetSection = z
  .object({ env: z.object(budgetVariables) })
  .transform(({ env }): BudgetSettings => ({ timeZone: env.MODELGATE_BUDGET_TIME_ZONE ?? 'UTC' }));

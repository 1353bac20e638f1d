/**
 * Budgets: the IANA time zone whose local midnight starts every budget period (a day, a week from
 * Monday, a month from the 1st). MODELGATE_BUDGET_TIME_ZONE, default UTC. Budget alerts: where they
 * go when a team has no `alert_url` (MODELGATE_BUDGET_ALERT_URL) and what signs them
 * (MODELGATE_BUDGET_ALERT_SECRET).
 */
import { z } from 'zod';
import { isTimeZone } from '../budgets/index.js';
import { variable } from './section.js';

export interface BudgetSettings {
  /** MODELGATE_BUDGET_TIME_ZONE: an IANA name such as `Europe/Paris`; `UTC` by default. */
  timeZone: string;
  /** MODELGATE_BUDGET_ALERT_URL: where budget alerts go when the team has no `alert_url`. */
  alertUrl: string | null;
  /** MODELGATE_BUDGET_ALERT_SECRET: the `whsec_…` budget alerts are signed with; unset, none is sent. */
  alertSecret: string | null;
}

export const budgetVariables = {
  MODELGATE_BUDGET_TIME_ZONE: variable
    .text()
    .refine((zone) => zone === undefined || isTimeZone(zone), {
      error: 'an IANA time zone such as Europe/Paris',
    }),
  MODELGATE_BUDGET_ALERT_URL: variable.text().refine((url) => url === undefined || isHttpUrl(url), {
    error: 'an http(s) URL',
  }),
  MODELGATE_BUDGET_ALERT_SECRET: variable
    .text()
    .refine((secret) => secret === undefined || /^whsec_[A-Za-z0-9+/]+=*$/.test(secret), {
      error: 'a Standard Webhooks secret: whsec_ + base64',
    }),
};

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export const budgetSection = z.object({ env: z.object(budgetVariables) }).transform(
  ({ env }): BudgetSettings => ({
    timeZone: env.MODELGATE_BUDGET_TIME_ZONE ?? 'UTC',
    alertUrl: env.MODELGATE_BUDGET_ALERT_URL ?? null,
    alertSecret: env.MODELGATE_BUDGET_ALERT_SECRET ?? null,
  }),
);

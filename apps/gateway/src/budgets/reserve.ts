/**
 * The budget half of a reservation, as one conditional UPDATE on the key row: it rolls the period
 * over when the stored period has ended, and reserves only if quota AND budget both cover the units.
 * One statement, so under READ COMMITTED a concurrent UPDATE re-checks this WHERE against the newest
 * row version and no two instances can both pass the last units of a budget. Period bounds are
 * computed here (Intl, the configured zone) for all three kinds and the row picks its own.
 * Not yet called by billing: settlement must first give unspent units back through refundBudget
 * (which credits only the period the reservation was made in).
 */
import { sql } from 'kysely';
import type { Executor } from '../billing/statements.js';
import { type BudgetPeriod, periodBounds } from './period.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The current period of each kind at `now`, in Unix seconds, as SQL for the row's own kind. */
function currentPeriod(now: Date, timeZone: string) {
  const bound = (edge: 'start' | 'end') => {
    const at = (period: BudgetPeriod) => seconds(periodBounds(period, now, timeZone)[edge]);
    return sql`(case budget_period when 'day' then ${at('day')}::bigint
      when 'week' then ${at('week')}::bigint else ${at('month')}::bigint end)`;
  };
  return { start: bound('start'), end: bound('end') };
}

/**
 * Reserves `units` against the key's quota and its budget in one statement; true when both covered
 * them (and `used`, `budget_spent` grew by `units`), false with nothing changed otherwise.
 *
 * @example
 * await reserveWithinBudget(db, keyId, 1_000, new Date(), 'Europe/Paris'); // true or false
 */
export async function reserveWithinBudget(
  t: Executor,
  keyId: number,
  units: number,
  now: Date,
  timeZone: string,
): Promise<boolean> {
  const period = currentPeriod(now, timeZone);
  const ended = sql`(budget_period_end is null or ${seconds(now)}::bigint >= budget_period_end)`;
  const spentSoFar = sql`(case when ${ended} then 0 else budget_spent end)`;
  const res = await sql`update api_keys set
      used = used + ${units}::bigint,
      budget_spent = case when budget_period is null then budget_spent
        else ${spentSoFar} + ${units}::bigint end,
      budget_period_start = case when budget_period is not null and ${ended}
        then ${period.start} else budget_period_start end,
      budget_period_end = case when budget_period is not null and ${ended}
        then ${period.end} else budget_period_end end
    where id = ${keyId}::bigint
      and (quota is null or used + ${units}::bigint <= quota)
      and (budget_amount is null or ${spentSoFar} + ${units}::bigint <= budget_amount)
    returning id`.execute(t);
  return res.rows.length === 1;
}

/**
 * Gives `units` of a reservation back to the key's budget, but only while the period it was made in
 * (`periodStart`, Unix seconds, read when reserving) is still the current one: after a rollover the
 * new period never reserved them, so nothing is taken off it and `budget_spent` cannot go negative.
 * Returns true when the budget was credited.
 *
 * @example
 * await refundBudget(db, keyId, 400, reservedInPeriodStart);
 */
export async function refundBudget(
  t: Executor,
  keyId: number,
  units: number,
  periodStart: number,
): Promise<boolean> {
  const res = await sql`update api_keys
    set budget_spent = greatest(budget_spent - ${units}::bigint, 0)
    where id = ${keyId}::bigint and budget_period_start = ${periodStart}::bigint
    returning id`.execute(t);
  return res.rows.length === 1;
}

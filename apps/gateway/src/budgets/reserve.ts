/**
 * The budget half of a reservation. A key with a budget, or whose team has one, takes no lease:
 * each reservation is two conditional UPDATEs in ONE transaction — the key row (quota and the key's
 * budget, rolling its period over when it has ended), then, when the key's team has a budget, the
 * team row (the team's budget, rolled over the same way). Each UPDATE re-checks its WHERE against
 * the newest row version under READ COMMITTED, and holds its row lock until COMMIT, so no two
 * instances can both pass the last units of a key's or a team's budget; a refused team UPDATE rolls
 * the key's back. Why not one statement of CTEs: the team row would be read from the statement's
 * snapshot, and a data-modifying CTE cannot undo the key's UPDATE when the team refuses, so two keys
 * of one team could overspend it. Locks are always taken key first, then team (settlements too), so
 * reservations of two keys of one team never deadlock.
 *
 * A reservation is stamped with the instant it was made (`at`, Unix seconds): a settlement gives
 * its unused part back to a budget only while that budget's stored period still contains `at`, so
 * a period that never reserved the units is never credited (and `budget_spent` cannot go negative).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { alertable, type BudgetLevel, type BudgetRefusal } from './levels.js';
import { type BudgetPeriod, boundsAt, unixSeconds } from './period.js';
import { settled, TEAM_BUDGETED, teamRefusal, whyRefused } from './refusal.js';

/** A database or a transaction on it. */
type Executor = Kysely<DB> | Transaction<DB>;

/** A budgeted reservation's outcome: reserved (stamped `at`), or refused by quota or a budget. */
export type BudgetedReservation =
  | { ok: true; at: number; budgeted: boolean; team: boolean; levels: BudgetLevel[] }
  | { ok: false; refusal: BudgetRefusal | 'quota' };

/** The current period of each kind at `now`, in Unix seconds, as SQL for the row's own kind. */
function currentPeriod(now: Date, timeZone: string) {
  const bound = (edge: 'start' | 'end') => {
    const at = (period: BudgetPeriod) => unixSeconds(boundsAt(period, now, timeZone)[edge]);
    return sql`(case budget_period when 'day' then ${at('day')}::bigint
      when 'week' then ${at('week')}::bigint else ${at('month')}::bigint end)`;
  };
  return { start: bound('start'), end: bound('end') };
}

/** The SET list and the budget condition that roll a row's period over and add `units`. */
function budgetUpdate(units: number, now: Date, timeZone: string) {
  const period = currentPeriod(now, timeZone);
  const ended = sql`(budget_period_end is null or ${unixSeconds(now)}::bigint >= budget_period_end)`;
  const spentSoFar = sql`(case when ${ended} then 0 else budget_spent end)`;
  return {
    set: sql`budget_spent = case when budget_period is null then budget_spent
        else ${spentSoFar} + ${units}::bigint end,
      budget_period_start = case when budget_period is not null and ${ended}
        then ${period.start} else budget_period_start end,
      budget_period_end = case when budget_period is not null and ${ended}
        then ${period.end} else budget_period_end end`,
    fits: sql`(budget_amount is null or ${spentSoFar} + ${units}::bigint <= budget_amount)`,
  };
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
  return (await reserveKeyRow(t, keyId, units, null, now, timeZone)) !== null;
}

interface KeyRowResult {
  keyBudgeted: boolean;
  teamId: number | null;
  teamBudgeted: boolean;
  /** The key's budget after the reservation, when at or above 80 % of it. */
  level: BudgetLevel | null;
}

/** The budget columns a reserving UPDATE returns (bigints come back as text from PostgreSQL). */
interface ReturnedBudget {
  budget_amount: string | number | null;
  budget_spent: string | number;
  budget_period: BudgetPeriod | null;
  budget_period_start: string | number | null;
  budget_period_end: string | number | null;
}

const RETURNED_BUDGET = sql`budget_amount, budget_spent, budget_period, budget_period_start,
  budget_period_end`;

/** The level of a row just reserved against, or null when it has no budget or is below 80 %. */
function levelOf(
  scope: BudgetLevel['scope'],
  id: number,
  teamId: number | null,
  row: ReturnedBudget,
): BudgetLevel | null {
  if (row.budget_amount === null || row.budget_period === null) return null;
  const level: BudgetLevel = {
    scope,
    id,
    teamId,
    amount: Number(row.budget_amount),
    spent: Number(row.budget_spent),
    period: row.budget_period,
    periodStart: Number(row.budget_period_start),
    resetsAt: Number(row.budget_period_end),
    refused: false,
  };
  return alertable(level) ? level : null;
}

/** The key's conditional UPDATE (and, with an owner, the same units into its hold). */
async function reserveKeyRow(
  t: Executor,
  keyId: number,
  units: number,
  owner: string | null,
  now: Date,
  timeZone: string,
  teamGuard = false,
): Promise<KeyRowResult | null> {
  const budget = budgetUpdate(units, now, timeZone);
  // Alone (no transaction), the statement may reserve only for a key whose team has no budget.
  const guard = teamGuard
    ? sql`and not exists (select 1 from teams t
        where t.id = api_keys.team_id and t.budget_amount is not null)`
    : sql``;
  const hold =
    owner === null
      ? sql``
      : sql`, hold as (insert into ledger_holds (key_id, owner, units)
          select id, ${owner}::text, ${units}::bigint from upd
          on conflict (key_id, owner) do update set units = ledger_holds.units + excluded.units)`;
  const res = await sql<
    { key_budgeted: boolean; team_id: number | null; team_budgeted: boolean } & ReturnedBudget
  >`
    with upd as (
      update api_keys set used = used + ${units}::bigint, ${budget.set}
      where id = ${keyId}::bigint and (quota is null or used + ${units}::bigint <= quota)
        and ${budget.fits} ${guard}
      returning id, team_id, budget_amount is not null as key_budgeted, ${RETURNED_BUDGET}
    )${hold}
    select upd.key_budgeted, upd.team_id, ${RETURNED_BUDGET},
      exists (select 1 from teams t where t.id = upd.team_id and t.budget_amount is not null)
        as team_budgeted
    from upd`.execute(t);
  const row = res.rows[0];
  if (!row) return null;
  const teamId = row.team_id === null ? null : Number(row.team_id);
  return {
    keyBudgeted: row.key_budgeted,
    teamId,
    teamBudgeted: row.team_budgeted,
    level: levelOf('key', keyId, teamId, row),
  };
}

/**
 * The team's conditional UPDATE: false when its budget refused `units`, else its level (null below
 * 80 %).
 */
async function reserveTeamRow(
  t: Executor,
  teamId: number,
  units: number,
  now: Date,
  timeZone: string,
): Promise<BudgetLevel | null | false> {
  const budget = budgetUpdate(units, now, timeZone);
  const res = await sql<ReturnedBudget>`update teams set ${budget.set}
    where id = ${teamId}::bigint and ${budget.fits} returning ${RETURNED_BUDGET}`.execute(t);
  const row = res.rows[0];
  return row ? levelOf('team', teamId, teamId, row) : false;
}

/** Thrown inside a transaction of our own to roll the key's UPDATE back when the team refuses. */
class TeamRefused extends Error {
  constructor(readonly refusal: BudgetRefusal | 'quota') {
    super('team budget refused');
  }
}

/**
 * Reserves `units` against the key's quota, its budget and its team's budget, all or nothing, inside
 * the caller's transaction (video's; the caller rolls it back on a refusal) or, given a Kysely
 * instance, on its own: a key whose team has no budget is ONE statement (the key's UPDATE, guarded
 * by "its team has no budget"); with `teamHint` (the last answer said the team has a budget), or
 * when that guard refuses, a transaction of the key's and the team's UPDATEs. With an owner the
 * units also go into its hold (LEDGER.md). On success `budgeted` says whether a budget is still in
 * force (false: the key can lease again) and `team` whether its team's is.
 *
 * @example
 * const r = await reserveBudgeted(db, keyId, 2_000, 'gw-1a2b', new Date(), 'UTC');
 * if (!r.ok) console.log(r.refusal); // 'quota' or { scope: 'team', amount, period, resetsAt, … }
 */
export async function reserveBudgeted(
  t: Executor,
  keyId: number,
  units: number,
  owner: string | null,
  now: Date,
  timeZone: string,
  teamHint = false,
): Promise<BudgetedReservation> {
  const attempt = async (trx: Executor): Promise<BudgetedReservation> => {
    const key = await reserveKeyRow(trx, keyId, units, owner, now, timeZone);
    if (!key)
      return { ok: false, refusal: settled(await whyRefused(trx, keyId, units, now, timeZone)) };
    const team = key.teamId !== null && key.teamBudgeted;
    const teamLevel = team ? await reserveTeamRow(trx, key.teamId!, units, now, timeZone) : null;
    if (teamLevel === false) {
      const refusal = settled(await teamRefusal(trx, keyId, units, now, timeZone));
      if (!t.isTransaction) throw new TeamRefused(refusal);
      return { ok: false, refusal };
    }
    const levels = [key.level, teamLevel].filter((level) => level !== null);
    return { ok: true, at: unixSeconds(now), budgeted: key.keyBudgeted || team, team, levels };
  };
  if (t.isTransaction) return attempt(t);
  if (!teamHint) {
    const key = await reserveKeyRow(t, keyId, units, owner, now, timeZone, true);
    if (key) {
      const levels = key.level ? [key.level] : [];
      return { ok: true, at: unixSeconds(now), budgeted: key.keyBudgeted, team: false, levels };
    }
    const refusal = await whyRefused(t, keyId, units, now, timeZone);
    if (refusal !== TEAM_BUDGETED) return { ok: false, refusal };
  }
  try {
    return await t.transaction().execute(attempt);
  } catch (err) {
    if (err instanceof TeamRefused) return { ok: false, refusal: err.refusal };
    throw err;
  }
}

/**
 * Which limit refused a budgeted reservation, read back after the fact: the refusal's message, not
 * a decision (the conditional UPDATEs in reserve.ts decided). One read of the key's row and its
 * team's answers both questions: why the key's UPDATE refused, and why the team's did.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { BudgetRefusal } from './levels.js';
import { type BudgetPeriod, boundsAt, unixSeconds } from './period.js';

/** The answer when nothing refused: the key's team has a budget (the key's guard refused). */
export const TEAM_BUDGETED = 'team budgeted';

/** A database or a transaction on it. */
type Executor = Kysely<DB> | Transaction<DB>;

export type RefusalReading = BudgetRefusal | 'quota' | typeof TEAM_BUDGETED;

interface BudgetRow {
  budget_amount: number | null;
  budget_period: BudgetPeriod | null;
  budget_spent: number;
  budget_period_start: number | null;
  budget_period_end: number | null;
}

interface BudgetRows {
  quota: number | null;
  used: number;
  teamId: number | null;
  key: BudgetRow;
  /** Null when the key has no team. */
  team: BudgetRow | null;
}

/** The key's quota and budget row and its team's budget row, in one read. */
async function readBudgetRows(t: Executor, keyId: number): Promise<BudgetRows | null> {
  const row = await t
    .selectFrom('api_keys as k')
    .leftJoin('teams as t', 't.id', 'k.team_id')
    .select([
      'k.quota',
      'k.used',
      'k.team_id',
      'k.budget_amount',
      'k.budget_period',
      'k.budget_spent',
      'k.budget_period_start',
      'k.budget_period_end',
      't.id as team_row',
      't.budget_amount as team_amount',
      't.budget_period as team_period',
      't.budget_spent as team_spent',
      't.budget_period_start as team_start',
      't.budget_period_end as team_end',
    ])
    .where('k.id', '=', keyId)
    .executeTakeFirst();
  if (!row) return null;
  const team: BudgetRow | null =
    row.team_row === null
      ? null
      : {
          budget_amount: row.team_amount,
          budget_period: row.team_period,
          budget_spent: row.team_spent ?? 0,
          budget_period_start: row.team_start,
          budget_period_end: row.team_end,
        };
  return {
    quota: row.quota === null ? null : Number(row.quota),
    used: Number(row.used),
    teamId: row.team_id === null ? null : Number(row.team_id),
    key: row,
    team,
  };
}

/** The team's part of a reading: its refusal of `units`, 'quota' without a team budget. */
function teamPart(rows: BudgetRows, units: number, now: Date, timeZone: string): RefusalReading {
  if (rows.teamId === null || rows.team === null || rows.team.budget_amount === null)
    return 'quota';
  const team = rows.team;
  return refusalOf('team', rows.teamId, rows.teamId, team, units, now, timeZone) ?? TEAM_BUDGETED;
}

/**
 * Why the key's team refused `units` (its UPDATE came back empty); the key's own row, already
 * updated by this reservation, is not judged again.
 */
export async function teamRefusal(
  t: Executor,
  keyId: number,
  units: number,
  now: Date,
  timeZone: string,
): Promise<RefusalReading> {
  const rows = await readBudgetRows(t, keyId);
  return rows ? teamPart(rows, units, now, timeZone) : 'quota';
}

/** Which limit refused `units` on the key: its quota, its budget, or its team's. */
export async function whyRefused(
  t: Executor,
  keyId: number,
  units: number,
  now: Date,
  timeZone: string,
): Promise<RefusalReading> {
  const rows = await readBudgetRows(t, keyId);
  if (!rows) return 'quota';
  if (rows.quota !== null && rows.used + units > rows.quota) return 'quota';
  const own = refusalOf('key', keyId, rows.teamId, rows.key, units, now, timeZone);
  return own ?? teamPart(rows, units, now, timeZone);
}

/** The refusal a budget row makes of `units` at `now`, or null when it covers them. */
function refusalOf(
  scope: BudgetRefusal['scope'],
  id: number,
  teamId: number | null,
  row: BudgetRow,
  units: number,
  now: Date,
  timeZone: string,
): BudgetRefusal | null {
  if (row.budget_amount === null || row.budget_period === null) return null;
  const current =
    row.budget_period_end !== null && unixSeconds(now) < Number(row.budget_period_end);
  const spent = current ? Number(row.budget_spent) : 0;
  if (spent + units <= Number(row.budget_amount)) return null;
  const bounds = current ? null : boundsAt(row.budget_period, now, timeZone);
  const resetsAt = bounds ? unixSeconds(bounds.end) : Number(row.budget_period_end);
  const periodStart = bounds ? unixSeconds(bounds.start) : Number(row.budget_period_start);
  const amount = Number(row.budget_amount);
  const period = row.budget_period;
  const level = { scope, id, teamId, amount, spent, period, periodStart, resetsAt, refused: true };
  return { scope, id, amount, period, resetsAt, level };
}

/**
 * A refusal read back after the limits moved (a concurrent settlement gave units back in between):
 * refused all the same, as the quota's — the request was over a limit when it was checked.
 */
export function settled(refusal: RefusalReading): BudgetRefusal | 'quota' {
  return refusal === TEAM_BUDGETED ? 'quota' : refusal;
}

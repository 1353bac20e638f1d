/**
 * The budgets' half of `ledger check`: each key's and team's `budget_spent` in its stored period
 * against the usage rows whose settlement moved that budget, reserved in that period (LEDGER.md
 * "Budgets"). A reservation adds to `budget_spent` when it is made and its settlement moves it by
 * `charged − taken`, so once everything is settled `spent` = Σ settled exactly; meanwhile it also
 * holds the reservations in flight: its keys' holds and their open video tasks reserved in the
 * period. A hold does not say when its reservations were made, so those enter as a bound:
 * settled ≤ spent ≤ settled + in flight (exact whenever nothing is in flight).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { checkTable, shortName } from './check-table.js';

export interface BudgetCheckRow {
  scope: 'key' | 'team';
  id: number;
  name: string;
  amount: number;
  spent: number;
  /** Σ units of the usage rows that moved this budget, reserved in its stored period. */
  settled: number;
  /** Reserved and not settled: its keys' holds and their open video tasks of the period. */
  inFlight: number;
  /** 0 when settled ≤ spent ≤ settled + inFlight; else how far spent is outside that range. */
  difference: number;
}

interface RawRow {
  id: string;
  name: string;
  budget_amount: string;
  budget_spent: string;
  settled: string;
  in_flight: string;
}

/** The open video tasks of keys matching `keys`, reserved in the period of the row `p`. */
const openTasks = (keys: RawBuilder<unknown>) => sql`coalesce((select sum(v.reserved_units)
  from video_tasks v where v.key_id in (${keys}) and v.status in ('pending', 'in_progress')
    and v.created_at >= p.budget_period_start and v.created_at < p.budget_period_end), 0)`;

const inPeriod = sql`u.budget_at >= p.budget_period_start and u.budget_at < p.budget_period_end`;

async function keyBudgets(db: Kysely<DB>): Promise<RawRow[]> {
  const res = await sql<RawRow>`select p.id, p.name, p.budget_amount, p.budget_spent,
      coalesce((select sum(u.units) from usage u
        where u.key_id = p.id and u.budget_key and ${inPeriod}), 0) as settled,
      coalesce((select sum(h.units) from ledger_holds h where h.key_id = p.id), 0)
        + ${openTasks(sql`p.id`)} as in_flight
    from api_keys p
    where p.budget_period is not null and p.budget_period_start is not null
    order by p.id`.execute(db);
  return res.rows;
}

async function teamBudgets(db: Kysely<DB>): Promise<RawRow[]> {
  const members = sql`select k.id from api_keys k where k.team_id = p.id`;
  const res = await sql<RawRow>`select p.id, p.name, p.budget_amount, p.budget_spent,
      coalesce((select sum(u.units) from usage u
        where u.budget_team_id = p.id and ${inPeriod}), 0) as settled,
      coalesce((select sum(h.units) from ledger_holds h where h.key_id in (${members})), 0)
        + ${openTasks(members)} as in_flight
    from teams p
    where p.budget_period is not null and p.budget_period_start is not null
    order by p.id`.execute(db);
  return res.rows;
}

function toRow(scope: BudgetCheckRow['scope'], raw: RawRow): BudgetCheckRow {
  const spent = Number(raw.budget_spent);
  const settled = Number(raw.settled);
  const inFlight = Number(raw.in_flight);
  const over = spent - settled - inFlight;
  return {
    scope,
    id: Number(raw.id),
    name: raw.name,
    amount: Number(raw.budget_amount),
    spent,
    settled,
    inFlight,
    difference: spent < settled ? spent - settled : Math.max(0, over),
  };
}

/**
 * One row per budget in force (keys first, then teams).
 * @example
 * const rows = await checkBudgets(db); budgetsBalance(rows); // true when every difference is 0
 */
export async function checkBudgets(db: Kysely<DB>): Promise<BudgetCheckRow[]> {
  const [keys, teams] = await Promise.all([keyBudgets(db), teamBudgets(db)]);
  return [...keys.map((r) => toRow('key', r)), ...teams.map((r) => toRow('team', r))];
}

export function budgetsBalance(rows: readonly BudgetCheckRow[]): boolean {
  return rows.every((r) => r.difference === 0);
}

/**
 * The budgets as a fixed-width table, amounts in units. Each line starts with its scope (`key 7`,
 * `team 2`), so a reader of the key table (its lines start with the key id) never mistakes one.
 */
export function formatBudgets(rows: readonly BudgetCheckRow[]): string {
  const header = ['budget', 'name', 'amount', 'spent', 'settled', 'in flight', 'difference'];
  const lines = rows.map((r) => [
    `${r.scope} ${r.id}`,
    shortName(r.name),
    String(r.amount),
    String(r.spent),
    String(r.settled),
    String(r.inFlight),
    String(r.difference),
  ]);
  const bad = rows.filter((r) => r.difference !== 0).length;
  const summary =
    bad === 0
      ? `budgets balance: ${rows.length} budgets, difference 0`
      : `budgets do NOT balance: ${bad} of ${rows.length} budgets differ`;
  return [...checkTable(header, lines), '', summary].join('\n');
}

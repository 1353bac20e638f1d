/**
 * Teams: a name, an alert URL and a budget that the team's keys share (a key joins with its
 * `team_id`). Administrators create, list, read, change and delete them; a team with keys cannot be
 * deleted. Every change is audited in its own transaction.
 */
import type {
  CreateTeamRequest,
  KeyBudget,
  Team,
  TeamList,
  UpdateTeamRequest,
} from '@modelgate/core';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { budgetChange, currentBudget, storedBudget } from '../budgets/index.js';
import type { TeamsTable } from '../budgets/tables.js';
import { containsPattern } from '../db/contains-pattern.js';
import { idPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';

type TeamRow = Selectable<TeamsTable> & { keys: number | string };
type Executor = Kysely<DB> | Transaction<DB>;

/** A team's row with how many keys belong to it. */
function selectTeams(db: Executor) {
  return db
    .selectFrom('teams')
    .selectAll('teams')
    .select(sql<number>`(select count(*) from api_keys k where k.team_id = teams.id)`.as('keys'));
}

/**
 * A team as the API shows it, its budget's current period at `now` (Unix seconds).
 * @example toTeam(row, Math.floor(Date.now() / 1000), 'UTC');
 */
export function toTeam(row: TeamRow, now: number, timeZone: string): Team {
  const stored = storedBudget(row);
  let budget: KeyBudget | null = null;
  if (stored) {
    const current = currentBudget(stored, now, timeZone);
    budget = {
      amount: current.amount,
      period: current.period,
      spent: current.spent,
      period_start: current.periodStart,
      resets_at: current.resetsAt,
    };
  }
  return {
    object: 'team',
    id: Number(row.id),
    name: row.name,
    alert_url: row.alert_url,
    budget,
    keys: Number(row.keys),
    created_at: Number(row.created_at),
  };
}

/** A team's settings as the audit log records them. */
export function teamSettings(row: Selectable<TeamsTable>): Record<string, unknown> {
  const budget = storedBudget(row);
  return {
    name: row.name,
    alert_url: row.alert_url,
    budget: budget && { amount: budget.amount, period: budget.period },
  };
}

/**
 * @example const row = await createTeam(trx, { name: 'research' }, now);
 */
export async function createTeam(
  t: Executor,
  input: CreateTeamRequest,
  now: number,
): Promise<TeamRow> {
  const row = await t
    .insertInto('teams')
    .values({
      name: input.name,
      alert_url: input.alert_url ?? null,
      created_at: now,
      budget_amount: input.budget?.amount ?? null,
      budget_period: input.budget?.period ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, keys: 0 };
}

/** @example const row = await getTeam(db, 3); // undefined when there is none */
export function getTeam(t: Executor, id: number): Promise<TeamRow | undefined> {
  return selectTeams(t).where('teams.id', '=', id).executeTakeFirst();
}

/** Changes the fields given; undefined when there is no such team. */
export async function updateTeam(
  t: Executor,
  id: number,
  change: UpdateTeamRequest,
): Promise<TeamRow | undefined> {
  const updated = await t
    .updateTable('teams')
    .set({ name: change.name, alert_url: change.alert_url, ...budgetChange(change.budget) })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return updated ? getTeam(t, id) : undefined;
}

/**
 * Deletes a team without keys: 'deleted', 'has_keys' (nothing changed) or 'missing'. The FOR UPDATE
 * on the team keeps a key from joining it between the count and the delete (the key's foreign key
 * takes a share lock on the team row).
 */
export async function deleteTeam(
  trx: Transaction<DB>,
  id: number,
): Promise<'deleted' | 'has_keys' | 'missing'> {
  const team = await trx
    .selectFrom('teams')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!team) return 'missing';
  const member = await trx
    .selectFrom('api_keys')
    .select('id')
    .where('team_id', '=', id)
    .executeTakeFirst();
  if (member) return 'has_keys';
  await trx.deleteFrom('teams').where('id', '=', id).execute();
  return 'deleted';
}

/**
 * One page of teams, newest first; with `name`, only those whose name contains it (ignoring case).
 * @example await listTeams(db, { limit: 20, name: 'research' }, now, 'UTC');
 */
export async function listTeams(
  db: Kysely<DB>,
  query: { limit: number; after?: string; name?: string },
  now: number,
  timeZone: string,
): Promise<TeamList> {
  let select = selectTeams(db);
  // A scan of the teams table, as the keys' name search is (10,000 rows take a few milliseconds).
  if (query.name !== undefined) select = select.where('name', 'ilike', containsPattern(query.name));
  const page = await idPage(select, query);
  return {
    object: 'list',
    data: page.rows.map((row) => toTeam(row, now, timeZone)),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}

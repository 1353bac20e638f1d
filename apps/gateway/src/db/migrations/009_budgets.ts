/**
 * Budgets and teams. A budget is an amount of units per period (`day`, `week` from Monday, `month`
 * from the 1st, in MODELGATE_BUDGET_TIME_ZONE) on a key or on a team; a key's spend counts against
 * both. The spent units and the current period's start and end live on the same row as `used`, so
 * the conditional UPDATE that reserves quota can roll the period over and check the budget in the
 * same statement (LEDGER.md). The team row exists before the key column that references it.
 */
import { type Kysely, sql } from 'kysely';

/** The budget columns, the same on `teams` and `api_keys`; all null/0 without a budget. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
function budgetColumns(table: string, db: Kysely<any>) {
  return sql`alter table ${sql.table(table)}
    add column budget_amount bigint check (budget_amount >= 0),
    add column budget_period text check (budget_period in ('day', 'week', 'month')),
    add column budget_spent bigint not null default 0 check (budget_spent >= 0),
    add column budget_period_start bigint,
    add column budget_period_end bigint,
    add constraint ${sql.id(`${table}_budget_whole`)}
      check ((budget_amount is null) = (budget_period is null))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alert_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await budgetColumns('teams', db);
  await budgetColumns('api_keys', db);
  await sql`alter table api_keys add column team_id bigint references teams (id)`.execute(db);
  // A team's keys, for its screen and for the refusal to delete a team that still has keys.
  await sql`create index api_keys_team on api_keys (team_id) where team_id is not null`.execute(db);
}

/**
 * Which budgets a usage row's settlement moved, so that `ledger check` can prove each budget's
 * `budget_spent` from the rows (LEDGER.md "Budgets"): `budget_at` is the instant of the
 * reservation whose budgets the settlement moved (null: none moved), `budget_key` whether the key's
 * own budget moved, `budget_team_id` the team whose budget moved. A row's settlement time
 * (`created_at`) would not do: a reservation made before midnight and settled after counts in the
 * period that reserved it. Rows written before this migration carry none (null, false).
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table usage
    add column budget_at bigint,
    add column budget_key boolean not null default false,
    add column budget_team_id bigint`.execute(db);
}

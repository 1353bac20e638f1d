/**
 * Budget alerts: one row per (owner, period, threshold) already announced, so a `budget.threshold`
 * webhook is written once however many reservations find the budget past it. An alert's outbox row
 * belongs to no key (`key_id` null): it is signed with MODELGATE_BUDGET_ALERT_SECRET, not a key's
 * callback secret, and no key's delivery list shows it.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('budget_alerts')
    .addColumn('owner_kind', 'text', (c) => c.notNull().check(sql`owner_kind in ('key', 'team')`))
    .addColumn('owner_id', 'bigint', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull().check(sql`threshold in (80, 100)`))
    .addColumn('delivery_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('budget_alerts_pk', [
      'owner_kind',
      'owner_id',
      'period_start',
      'threshold',
    ])
    .execute();
  await sql`alter table callback_deliveries alter column key_id drop not null`.execute(db);
}

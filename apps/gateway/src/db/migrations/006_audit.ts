/**
 * The audit log: one row per administrative change, written in the change's own transaction. No
 * operation updates or deletes a row.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_key_id', 'bigint', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .execute();
  // The console filters by the key changed; newest first within it.
  await sql`create index audit_log_target on audit_log (target_type, target_id, id)`.execute(db);
}

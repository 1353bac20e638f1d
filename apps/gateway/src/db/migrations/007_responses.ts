/**
 * Responses API state: each response the gateway answered, with the conversation items it was
 * created from, kept per key for `previous_response_id`, retrieve and input items until the
 * retention sweep deletes it.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('text_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('text_responses_created')
    .on('text_responses')
    .column('created_at_ms')
    .execute();
}

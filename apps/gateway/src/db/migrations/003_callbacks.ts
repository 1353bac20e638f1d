/**
 * Callbacks: per-key signing secrets, the delivery outbox and every attempt. Scheduling times are
 * milliseconds (`*_ms`); the API shows unix seconds.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('callback_secrets')
    .addColumn('key_id', 'bigint', (c) =>
      c.primaryKey().references('api_keys.id').onDelete('cascade'),
    )
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('callback_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at_ms', 'bigint')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('callback_deliveries_due')
    .on('callback_deliveries')
    .column('next_attempt_at_ms')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('callback_deliveries_key_seq')
    .on('callback_deliveries')
    .columns(['key_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('callback_deliveries_key_task')
    .on('callback_deliveries')
    .columns(['key_id', 'task_id', 'seq'])
    .execute();

  await db.schema
    .createTable('callback_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('callback_deliveries.id').onDelete('cascade'),
    )
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('callback_attempts_delivery')
    .on('callback_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
}

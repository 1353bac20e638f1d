/**
 * Uploaded files and video tasks. Blobs live in the blob store under their SHA-256; rows
 * reference them. Task scheduling times are milliseconds (`*_ms`), API-visible times unix seconds.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('ext', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_sha256').on('files').column('sha256').execute();

  await db.schema
    .createTable('video_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Insertion order for "newest first" and opaque cursors (created_at has 1 s resolution).
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('pending', 'in_progress', 'completed', 'failed', 'cancelled')`),
    )
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb')
    .addColumn('callback_url', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('reserved_units', 'bigint', (c) => c.notNull())
    .addColumn('charged_units', 'bigint')
    .addColumn('upstream_id', 'text')
    // Set (by CAS) just before the one upstream submit: a row with this set and no upstream_id
    // after a crash may or may not exist upstream, so it is failed, never submitted twice.
    .addColumn('submit_started_at_ms', 'bigint')
    .addColumn('claimed_by', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('next_poll_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('deadline_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('poll_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('video_sha256', 'text')
    .addColumn('video_size', 'bigint')
    .addColumn('video_duration', 'double precision')
    .addColumn('video_width', 'integer')
    .addColumn('video_height', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('video_tasks_idempotency')
    .on('video_tasks')
    .columns(['key_id', 'idempotency_key'])
    .unique()
    .where(sql.ref('idempotency_key'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('video_tasks_key_seq')
    .on('video_tasks')
    .columns(['key_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('video_tasks_due')
    .on('video_tasks')
    .column('next_poll_at_ms')
    .where(sql.ref('status'), 'in', sql`('pending', 'in_progress')`)
    .execute();
  await db.schema
    .createIndex('video_tasks_video_sha256')
    .on('video_tasks')
    .column('video_sha256')
    .execute();
}

/** API keys and usage rows. Amounts are integer quota units (bigint); times are unix seconds (bigint). */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'user')`))
    .addColumn('quota', 'bigint', (c) => c.check(sql`quota is null or quota >= 0`))
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('models', 'jsonb')
    .addColumn('rpm', 'integer')
    .addColumn('tpm', 'integer')
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The invariant billing relies on, enforced by the database as well as by reserve().
    .addCheckConstraint('api_keys_balance_non_negative', sql`quota is null or used <= quota`)
    .execute();

  await db.schema
    .createTable('usage')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key_id', 'bigint', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('input_tokens', 'bigint')
    .addColumn('output_tokens', 'bigint')
    .addColumn('seconds', 'double precision')
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('ref', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_key_created').on('usage').columns(['key_id', 'id']).execute();
}

/**
 * Usage rows count prompt-cache tokens apart from plain input, because the providers bill them at
 * their own prices (a Claude cache read at 0.1 × input, a 5-minute write at 1.25 ×, a 1-hour write
 * at 2 ×). Null on rows that are not text, as `input_tokens` is.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('usage')
    .addColumn('cache_read_tokens', 'bigint')
    .addColumn('cache_write_5m_tokens', 'bigint')
    .addColumn('cache_write_1h_tokens', 'bigint')
    .execute();
}

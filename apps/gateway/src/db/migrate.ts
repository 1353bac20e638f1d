/**
 * Applies pending migrations at start. On PostgreSQL everything runs in ONE transaction holding a
 * transaction-scoped advisory lock, so two instances starting together cannot both apply a migration:
 * the second waits, then finds nothing left to do. PGlite is a single process: no lock needed.
 */
import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from './database.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

/** Arbitrary constant shared by every instance: "modelgate" in ASCII, truncated to fit int8. */
const ADVISORY_LOCK_ID = 0x6d6f64656c676174n;

export interface MigrateResult {
  applied: string[];
}

/**
 * Run pending migrations.
 *
 * @example
 * const { applied } = await migrate(db, 'postgres');
 */
export async function migrate(
  // biome-ignore lint/suspicious/noExplicitAny: runs before the typed schema exists.
  db: Kysely<any>,
  kind: DatabaseKind,
  migrations: Migration[] = allMigrations,
): Promise<MigrateResult> {
  return db.transaction().execute(async (trx) => {
    if (kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(${sql.lit(ADVISORY_LOCK_ID.toString())}::bigint)`.execute(
        trx,
      );
    }
    await trx.schema
      .createTable('modelgate_migrations')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const done = new Set(
      (await trx.selectFrom('modelgate_migrations').select('name').execute()).map(
        (r: { name: string }) => r.name,
      ),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await m.up(trx);
      await trx
        .insertInto('modelgate_migrations')
        .values({ name: m.name, applied_at: Math.floor(Date.now() / 1000) })
        .execute();
      applied.push(m.name);
    }
    return { applied };
  });
}

/** True when every known migration is recorded (used by /readyz). */
// biome-ignore lint/suspicious/noExplicitAny: runs before the typed schema exists.
export async function migrationsComplete(db: Kysely<any>): Promise<boolean> {
  const rows = await db.selectFrom('modelgate_migrations').select('name').execute();
  const done = new Set(rows.map((r: { name: string }) => r.name));
  return allMigrations.every((m) => done.has(m.name));
}

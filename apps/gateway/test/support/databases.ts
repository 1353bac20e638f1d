/**
 * Both databases for tests: PGlite (a copy of a data directory made once per run) always, plus
 * PostgreSQL when DATABASE_URL is set. Each use gets its own database (a PGlite copy, or a PostgreSQL
 * database mg_<random>), removed afterwards, so parallel test files never see each other's rows.
 *
 * @example
 * describe.each(eachDatabase())('keys on $name', (target) => {
 *   let h: TestDatabase;
 *   beforeAll(async () => { h = await openTestDatabase(target); });
 *   afterAll(() => h.close());
 * });
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { copyPgliteTemplate } from './pglite-template.js';

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
}

export function eachDatabase(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: 'pglite' }];
  if (process.env.DATABASE_URL) targets.push({ name: 'postgres' });
  return targets;
}

export interface FreshDatabase {
  /** postgres://… of the fresh database, or null for PGlite. */
  databaseUrl: string | null;
  /** PGlite's: a copy of one of the run's templates (pglite-template.ts), else 'memory://'. */
  pgliteDir: string;
  /** Drop the PostgreSQL database, or remove the PGlite copy. Close every pool on it first. */
  drop(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Make (but do not open) a database for `target`. A PostgreSQL one is always empty; a PGlite one has
 * every migration applied already (a copy of the run's template), unless `empty` is asked for, as
 * the tests of the migrations do. Opening either runs `migrate`, which finds nothing left to do on
 * the copy.
 */
export async function freshDatabase(
  target: DatabaseTarget,
  { empty = false }: { empty?: boolean } = {},
): Promise<FreshDatabase> {
  if (target.name === 'pglite') {
    const copy = copyPgliteTemplate(empty ? 'empty' : 'migrated');
    return {
      databaseUrl: null,
      pgliteDir: copy?.dir ?? 'memory://',
      drop: async () => copy?.remove(),
    };
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `mg_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    pgliteDir: 'memory://',
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

export interface TestDatabase extends Database {
  fresh: FreshDatabase;
}

/** A fresh, migrated database; close() closes it and drops it. */
export async function openTestDatabase(target: DatabaseTarget): Promise<TestDatabase> {
  const fresh = await freshDatabase(target);
  const database = await createDatabase({
    databaseUrl: fresh.databaseUrl,
    dataDir: fresh.pgliteDir,
  });
  await migrate(database.db, database.kind);
  return {
    ...database,
    fresh,
    close: async () => {
      await database.close();
      await fresh.drop();
    },
  };
}

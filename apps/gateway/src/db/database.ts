/**
 * Opens the gateway's database: PostgreSQL through `pg` when a URL is given, embedded PGlite otherwise.
 * Both speak the same SQL, so one schema and one migration set serve both. PGlite runs in a worker
 * thread (pglite-thread.ts) so its WASM never blocks the event loop; a new data directory is
 * created by a short-lived child process (pglite-init.ts).
 */
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import { initDataDir } from './pglite-init.js';
import { lockDataDir } from './pglite-lock.js';
import { PGliteThread } from './pglite-thread.js';
import type { DB } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; when absent PGlite is used. */
  databaseUrl?: string | null;
  /** PGlite data directory; `memory://` (or null) for an in-memory database. */
  dataDir?: string | null;
  /** Pool size for PostgreSQL (default 10). */
  poolSize?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** int8 (bigint, count(*)) as a JS number: quota units and ids stay far below 2^53. */
const parseInt8 = (value: string) => Number(value);

/**
 * PostgreSQL settings for PGlite. PGlite's WASM memory never shrinks and its buffer pool is
 * resident from the start, so every MB here is paid for the process's life:
 * - shared_buffers: PGlite's default 128 MB costs ≈ 130 MB RSS. Pages that miss are read from the
 *   OS page cache. Measured with 2,000 keys and a 300k-row `usage` table: 16 MB is as fast as
 *   128 MB; 8 MB was ≈ 40 % slower per statement.
 * - maintenance_work_mem: 64 MB by default; a CREATE INDEX on a large table (a future
 *   migration) would grow the WASM memory by that much, for good.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'];

/**
 * Open a database.
 *
 * @example
 * const { db, kind, close } = await createDatabase({ databaseUrl: config.databaseUrl ?? undefined });
 * await db.selectFrom('api_keys').select('id').execute();
 * await close();
 */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8_OID || oid === NUMERIC_OID) return parseInt8;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {});
    // Nor one that is checked out: the pool removes its own listener from a client it hands out,
    // and a connection cut under a running query (a server crash, a network failure) makes that
    // client emit 'error' as well as fail the query. The query's promise carries the error; the
    // pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? options.dataDir : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    if (dataDir) await initDataDir(dataDir);
    const thread = await PGliteThread.start({
      ...(dataDir ? { dataDir } : {}),
      settings: PGLITE_SETTINGS,
      numberOids: [INT8_OID, NUMERIC_OID],
    });
    const db = new Kysely<DB>({ dialect: new PGliteDialect(thread) });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        try {
          await db.destroy();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

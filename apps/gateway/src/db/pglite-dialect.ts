/**
 * A Kysely dialect for PGlite. PGlite is one PostgreSQL backend in this process, i.e. ONE connection:
 * the driver hands it out to one holder at a time (a FIFO mutex), so a transaction owns the connection
 * from BEGIN to COMMIT and no other query can slip in between. Consequence for callers: inside
 * `db.transaction().execute(trx => …)` use `trx`, never `db` — a query on `db` would wait for the
 * transaction that waits for it.
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const command = result.command?.toUpperCase();
    const changes =
      command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
        ? BigInt(result.affectedRows ?? result.rowCount ?? 0)
        : undefined;
    return {
      rows: result.rows,
      ...(changes !== undefined ? { numAffectedRows: changes } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; streaming is not supported.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}

/** FIFO mutex: one holder at a time, waiters served in arrival order. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return acquired;
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;

  constructor(private readonly pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    this.releases.set(this.connection, release);
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let sql = 'begin';
    if (settings.isolationLevel) sql += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) sql += ` ${settings.accessMode}`;
    await conn.executeQuery({ sql, parameters: [] } as unknown as CompiledQuery);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'commit', parameters: [] } as unknown as CompiledQuery);
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'rollback', parameters: [] } as unknown as CompiledQuery);
  }

  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery({
      sql: `savepoint ${name}`,
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery({
      sql: `rollback to savepoint ${name}`,
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery({
      sql: `release savepoint ${name}`,
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.releases.get(conn);
    this.releases.delete(conn);
    release?.();
  }

  async destroy(): Promise<void> {
    // Wait for the current holder so close() never cuts a transaction in half.
    const release = await this.mutex.lock();
    try {
      if (!this.pg.closed) await this.pg.close();
    } finally {
      release();
    }
  }
}

/**
 * Kysely dialect over an (already constructed) PGlite instance.
 *
 * @example
 * const db = new Kysely<DB>({ dialect: new PGliteDialect(new PGlite('memory://')) });
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database.
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * A Kysely dialect for PGlite running in a worker thread (pglite-thread.ts). PGlite is one
 * PostgreSQL backend, i.e. ONE connection, shared in order: a transaction owns it from BEGIN to
 * COMMIT and no other statement can slip in between; statements outside transactions run in arrival
 * order, waiting for any open transaction. The worker enforces that, so the main thread never holds
 * a lock and statements outside transactions run back to back. Consequence for callers: inside
 * `db.transaction().execute(trx => …)` use `trx`, never `db` — a query on `db` would wait for the
 * transaction that waits for it. And `db.connection()` gives no exclusivity: only transactions do.
 */
import {
  CompiledQuery,
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
import type { PGliteThread } from './pglite-thread.js';

class PGliteConnection implements DatabaseConnection {
  /** The transaction this connection is in (0: none). */
  tx = 0;

  constructor(private readonly pg: PGliteThread) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(compiledQuery.sql, compiledQuery.parameters, this.tx);
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

  run(sql: string): Promise<QueryResult<unknown>> {
    return this.executeQuery(CompiledQuery.raw(sql));
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; streaming is not supported.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  constructor(private readonly pg: PGliteThread) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.pg);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let sql = 'begin';
    if (settings.isolationLevel) sql += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) sql += ` ${settings.accessMode}`;
    const connection = conn as PGliteConnection;
    connection.tx = this.pg.transaction();
    await connection.run(sql);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).run('commit');
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).run('rollback');
  }

  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as PGliteConnection).run(`savepoint ${name}`);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as PGliteConnection).run(`rollback to savepoint ${name}`);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await (conn as PGliteConnection).run(`release savepoint ${name}`);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    // The worker ends a transaction when its COMMIT/ROLLBACK succeeds; this covers the others
    // (BEGIN failed, COMMIT and ROLLBACK both failed) so the statements behind it are not stuck.
    const connection = conn as PGliteConnection;
    if (connection.tx !== 0) this.pg.release(connection.tx);
    connection.tx = 0;
  }

  async destroy(): Promise<void> {
    // Runs after what is already queued and after the open transaction: never cuts one in half.
    await this.pg.close();
  }
}

/**
 * Kysely dialect over a started PGlite thread; `db.destroy()` closes it.
 *
 * @example
 * const db = new Kysely<DB>({ dialect: new PGliteDialect(await PGliteThread.start()) });
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGliteThread) {}
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

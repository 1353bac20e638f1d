/**
 * PGlite in a worker thread, driven from the main thread over its MessagePort. Requests are posted
 * at once, never held back here: the worker runs them in arrival order, one transaction at a time
 * (pglite-worker.ts). A worker that dies (crash, WASM abort, `process.exit` inside it) fails every
 * pending and later query with `PGliteStoppedError` instead of leaving callers waiting.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { evalSource } from './eval-source.js';
import {
  type PGliteReply,
  type PGliteRequest,
  type PGliteWorkerData,
  pgliteWorkerMain,
  type SerializedError,
} from './pglite-worker.js';

/**
 * An error raised inside PGlite, rebuilt on the main thread with the fields PostgreSQL sent:
 * `code` (the SQLSTATE, e.g. `'23505'`), `detail`, `constraint`, `table`, … — the same fields `pg`'s
 * `DatabaseError` has, so `err.code === '23505'` works on both databases.
 */
export class PGliteError extends Error {
  declare code?: string;
  declare detail?: string;
  declare hint?: string;
  declare constraint?: string;
  declare table?: string;
  declare column?: string;
  declare schema?: string;
  declare severity?: string;

  constructor(serialized: SerializedError) {
    super(serialized.message);
    Object.assign(this, serialized);
  }
}

/** The PGlite thread is gone: closed, or it died (the cause says why). */
export class PGliteStoppedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PGliteStoppedError';
  }
}

export interface PGliteThreadOptions {
  /** On-disk data directory (already initialised, see pglite-init.ts); undefined: in memory. */
  dataDir?: string;
  /** PostgreSQL settings, `name=value`, given on the command line (the data directory is untouched). */
  settings?: string[];
  /** Type OIDs parsed with `Number`. */
  numberOids?: number[];
}

/** What a query answers: the subset of PGlite's `Results` the dialect reads. */
export interface PGliteQueryResult<R> {
  rows: R[];
  command?: string;
  affectedRows?: number;
  rowCount?: number;
}

interface Pending {
  resolve(reply: Extract<PGliteReply, { ok: true }>): void;
  reject(err: Error): void;
}

const require = createRequire(import.meta.url);

/**
 * A PGlite database running in its own thread.
 *
 * @example
 * const pg = await PGliteThread.start({ dataDir: '/srv/modelgate/db' });
 * const { rows } = await pg.query<{ one: number }>('select 1 as one', []);
 * await pg.close();
 */
export class PGliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextTransaction = 1;
  private stopped: PGliteStoppedError | null = null;
  private closing: Promise<void> | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PGliteReply) => {
      if (!('id' in reply)) return;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.settle(reply.id);
      if (reply.ok) waiter.resolve(reply);
      else waiter.reject(new PGliteError(reply.error));
    });
    worker.on('error', (err) => this.stop(`the PGlite thread failed: ${err.message}`, err));
    worker.on('messageerror', (err) =>
      this.stop(`a reply from the PGlite thread could not be read: ${err.message}`, err),
    );
    worker.on('exit', (code) => this.stop(`the PGlite thread exited (code ${code})`));
  }

  /** Start the thread and open the database in it; rejects with PGliteError if PGlite cannot start. */
  static start(options: PGliteThreadOptions = {}): Promise<PGliteThread> {
    const pglitePath = require.resolve('@electric-sql/pglite');
    const workerData: PGliteWorkerData = {
      pglitePath,
      dataDir: options.dataDir,
      settings: options.settings ?? [],
      numberOids: options.numberOids ?? [],
    };
    const worker = new Worker(evalSource(pgliteWorkerMain, pglitePath), {
      eval: true,
      workerData,
      // The thread's own JavaScript is message passing and row decoding: a small young generation
      // does it as fast (6,000 inserts: same time) and its heap stays ≈ 26 MB instead of ≈ 54 MB
      // once V8 has grown the default semi-spaces.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        worker.off('message', onMessage);
        void worker.terminate();
        reject(err);
      };
      const onMessage = (reply: PGliteReply) => {
        if (!('op' in reply)) return;
        worker.off('message', onMessage);
        worker.off('error', fail);
        worker.off('exit', onExit);
        if (reply.op === 'failed') return fail(new PGliteError(reply.error));
        const thread = new PGliteThread(worker);
        // An idle database must not keep the process alive (in-process PGlite did not either);
        // query() refs the thread while a request is out.
        worker.unref();
        resolve(thread);
      };
      const onExit = (code: number) =>
        fail(new PGliteStoppedError(`the PGlite thread exited during start (code ${code})`));
      worker.on('message', onMessage);
      worker.once('error', fail);
      worker.once('exit', onExit);
    });
  }

  /** True once close() was called or the thread died. */
  get closed(): boolean {
    return this.stopped !== null || this.closing !== null;
  }

  /**
   * Run one statement with positional parameters ($1, $2, …). `tx`: the transaction it belongs to
   * (from `transaction()`), 0 for none — it then waits for any open transaction to end.
   */
  query<R>(sql: string, params: readonly unknown[] = [], tx = 0): Promise<PGliteQueryResult<R>> {
    // A transaction open when close() was called may finish (close waits for it); nothing new starts.
    if (this.closing && tx === 0) {
      return Promise.reject(new PGliteStoppedError('the database is closed'));
    }
    return this.send({ id: 0, op: 'query', sql, params: [...params], tx }) as Promise<
      PGliteQueryResult<R>
    >;
  }

  /**
   * A new transaction id. The transaction opens with its first statement (BEGIN) and holds the
   * database until its COMMIT or ROLLBACK succeeds or `release(tx)` is called, whichever is first.
   */
  transaction(): number {
    return this.nextTransaction++;
  }

  /** End transaction `tx` (no-op if it ended already): the statements queued behind it run. */
  release(tx: number): void {
    if (this.stopped) return;
    this.worker.postMessage({ op: 'release', tx } satisfies PGliteRequest);
  }

  /**
   * Close the database and end the thread, after the requests already posted and the open
   * transaction, if any. Safe to call twice, and after the thread died.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.stopped) await this.send({ id: 0, op: 'close' });
      } catch (err) {
        if (!(err instanceof PGliteStoppedError)) throw err;
      } finally {
        this.stopped ??= new PGliteStoppedError('the database is closed');
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private send(
    request: Extract<PGliteRequest, { id: number }>,
  ): Promise<Extract<PGliteReply, { ok: true }>> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      try {
        this.worker.postMessage({ ...request, id });
      } catch (err) {
        // Parameters that cannot be cloned: this query fails, the thread is fine.
        reject(err);
        return;
      }
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private stop(message: string, cause?: unknown): void {
    if (this.stopped) return;
    this.stopped = new PGliteStoppedError(message, cause === undefined ? undefined : { cause });
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const waiter of waiting) waiter.reject(this.stopped);
  }
}

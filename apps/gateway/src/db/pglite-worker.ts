/**
 * The body of the worker thread that owns PGlite (see pglite-thread.ts). PGlite runs PostgreSQL's
 * WASM synchronously: on the main thread every query stalls the event loop, and a backlog of queries
 * (each resolved in microtasks) stalls it until the backlog is gone. In a worker it only occupies the
 * worker.
 *
 * The worker also ORDERS the statements, so the main thread never waits for a lock: requests run in
 * arrival order, except that while a transaction is open only its own statements run — the others
 * wait until it ends (its COMMIT/ROLLBACK succeeded, or the main thread released it). Statements
 * outside transactions thus run back to back, without a round trip to the main thread in between.
 *
 * The function is shipped to the worker as SOURCE TEXT (eval-source.ts), so the gateway needs no
 * separate worker file in dist/ or in tests. Hence the rule for this function: it must be
 * self-contained — no imports, no references to anything outside its body; modules come through
 * `load` (a `require`).
 */

/** What the worker is started with (`workerData`). Plain data: it is cloned into the worker. */
export interface PGliteWorkerData {
  /** Absolute path of `@electric-sql/pglite`'s CommonJS entry. */
  pglitePath: string;
  /** On-disk data directory; undefined: in memory. */
  dataDir: string | undefined;
  /** Appended to PGlite's default postgres command line as `-c name=value`. */
  settings: string[];
  /** Type OIDs whose values are parsed with `Number` (int8, numeric). */
  numberOids: number[];
}

/**
 * Main thread → worker. `tx` is 0 outside transactions, else the transaction's id: ids grow, and the
 * first statement of a transaction (its BEGIN) opens it in the worker.
 */
export type PGliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx: number }
  | { op: 'release'; tx: number }
  | { id: number; op: 'close' };

/** An error as it crosses the thread boundary: its name, message, stack and string fields (`code`…). */
export type SerializedError = { name: string; message: string; stack?: string } & Record<
  string,
  string | number | undefined
>;

/** Worker → main thread. The first message is `ready` or `failed`; the rest answer requests. */
export type PGliteReply =
  | { op: 'ready' }
  | { op: 'failed'; error: SerializedError }
  | {
      id: number;
      ok: true;
      rows: unknown[];
      command?: string;
      affectedRows?: number;
      rowCount?: number;
    }
  | { id: number; ok: false; error: SerializedError };

/** The worker thread's entry point. */
export function pgliteWorkerMain(load: NodeJS.Require): void {
  const { parentPort, workerData } = load(
    'node:worker_threads',
  ) as typeof import('node:worker_threads');
  const data = workerData as PGliteWorkerData;
  const port = parentPort!;

  // DatabaseError's fields (code, detail, constraint, …) are own string properties; the query's
  // params and options are left behind (not cloneable, and possibly large).
  const serialize = (err: unknown): SerializedError => {
    if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
    const out: SerializedError = { name: err.name, message: err.message };
    if (err.stack) out.stack = err.stack;
    for (const [key, value] of Object.entries(err)) {
      if (typeof value === 'string' || typeof value === 'number') out[key] = value;
    }
    return out;
  };

  const start = async () => {
    const { PGlite } = load(data.pglitePath) as typeof import('@electric-sql/pglite');
    const parsers: Record<number, (value: string) => number> = {};
    for (const oid of data.numberOids) parsers[oid] = Number;
    const pg = new PGlite({
      ...(data.dataDir ? { dataDir: data.dataDir } : {}),
      parsers,
      startParams: [...PGlite.defaultStartParams, ...data.settings.flatMap((s) => ['-c', s])],
    });
    await pg.waitReady;
    return pg;
  };

  const serve = (pg: Awaited<ReturnType<typeof start>>) => {
    const queue: PGliteRequest[] = [];
    // The open transaction (0: none), and the highest id of one that ended: a late request of an
    // ended transaction (its release) must not open it again.
    let open = 0;
    let ended = 0;
    let running = false;

    const runnable = (): number => {
      if (open === 0) return queue.length > 0 ? 0 : -1;
      return queue.findIndex((r) => r.op !== 'close' && r.tx === open);
    };
    const end = (tx: number) => {
      if (open === tx) open = 0;
      if (tx > ended) ended = tx;
    };

    const fail = (id: number, err: unknown) =>
      port.postMessage({ id, ok: false, error: serialize(err) } satisfies PGliteReply);

    const run = async (request: PGliteRequest) => {
      if (request.op === 'release') {
        // Released while still open (its COMMIT and ROLLBACK failed, or were never sent): roll it
        // back, so the statements behind it do not run inside it.
        if (open === request.tx) await pg.query('rollback').catch(() => {});
        return end(request.tx);
      }
      if (request.op === 'close') {
        try {
          if (!pg.closed) await pg.close();
          port.postMessage({ id: request.id, ok: true, rows: [] } satisfies PGliteReply);
        } catch (err) {
          fail(request.id, err);
        }
        return;
      }
      if (request.tx > ended && open === 0) open = request.tx;
      try {
        const result = await pg.query(request.sql, request.params);
        if (request.tx !== 0 && (request.sql === 'commit' || request.sql === 'rollback')) {
          end(request.tx);
        }
        const reply: Extract<PGliteReply, { ok: true }> = {
          id: request.id,
          ok: true,
          rows: result.rows,
        };
        if (result.command !== undefined) reply.command = result.command;
        if (result.affectedRows !== undefined) reply.affectedRows = result.affectedRows;
        if (result.rowCount !== undefined) reply.rowCount = result.rowCount;
        port.postMessage(reply);
      } catch (err) {
        fail(request.id, err);
      }
    };

    const pump = async () => {
      if (running) return;
      running = true;
      try {
        for (let i = runnable(); i >= 0; i = runnable()) {
          const [request] = queue.splice(i, 1);
          await run(request!);
        }
      } finally {
        running = false;
      }
    };

    port.on('message', (request: PGliteRequest) => {
      queue.push(request);
      void pump();
    });
  };

  start().then(
    (pg) => {
      serve(pg);
      port.postMessage({ op: 'ready' } satisfies PGliteReply);
    },
    (err: unknown) =>
      port.postMessage({ op: 'failed', error: serialize(err) } satisfies PGliteReply),
  );
}

// PGlite in its worker thread, through Kysely: ordering (one transaction at a time, other statements
// behind it), errors rebuilt with PostgreSQL's fields, and a dead thread failing queries, not hanging.
import type { Worker } from 'node:worker_threads';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';
import { PGliteDialect } from '../../src/db/pglite-dialect.js';
import { PGliteError, PGliteStoppedError, PGliteThread } from '../../src/db/pglite-thread.js';

interface T {
  t: { id: number; v: string | null };
}

const yieldTurns = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('PGlite thread', () => {
  let database: Database;
  let db: Kysely<T>;

  beforeAll(async () => {
    database = await createDatabase({ dataDir: 'memory://' });
    db = database.db as unknown as Kysely<T>;
    await sql`create table t (id int8 primary key, v text)`.execute(db);
  });
  afterAll(() => database?.close());

  it('runs a statement issued during a transaction after it, not inside it', async () => {
    await sql`truncate t`.execute(db);
    let outside: Promise<number> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 1, v: null }).execute();
      outside = db
        .selectFrom('t')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => row.n);
      await yieldTurns(); // time for the outside statement to overtake, were it able to
      await trx.insertInto('t').values({ id: 2, v: null }).execute();
    });
    // Inside the transaction it would have seen 1 row; after it, both.
    expect(await outside).toBe(2);
  });

  it('runs statements outside transactions in the order they were issued', async () => {
    await sql`truncate t`.execute(db);
    const writes = Array.from({ length: 50 }, (_, i) =>
      db
        .insertInto('t')
        .values({ id: i, v: String(i) })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute(),
    );
    const updates = Array.from({ length: 50 }, (_, i) =>
      db
        .updateTable('t')
        .set({ v: `${i}!` })
        .where('id', '=', i)
        .execute(),
    );
    await Promise.all(writes);
    const updated = await Promise.all(updates);
    expect(updated.map(([r]) => r?.numUpdatedRows)).toEqual(new Array(50).fill(1n));
    const rows = await db.selectFrom('t').select('v').orderBy('id').execute();
    expect(rows.map((r) => r.v)).toEqual(Array.from({ length: 50 }, (_, i) => `${i}!`));
  });

  it('gives the database back after a transaction fails, rolled back', async () => {
    await sql`truncate t`.execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 7, v: 'x' }).execute();
        await trx.insertInto('t').values({ id: 7, v: 'y' }).execute();
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([]);
  });

  it('rebuilds database errors with their SQLSTATE and fields', async () => {
    await sql`truncate t`.execute(db);
    await db.insertInto('t').values({ id: 1, v: null }).execute();
    const err = await db
      .insertInto('t')
      .values({ id: 1, v: null })
      .execute()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PGliteError);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
    await expect(sql`select * from missing_table`.execute(db)).rejects.toMatchObject({
      code: '42P01',
    });
  });

  it('returns int8 and numeric as numbers', async () => {
    const { rows } = await sql<{
      a: unknown;
      b: unknown;
    }>`select 9007199254740991::int8 as a, 12.5::numeric as b`.execute(db);
    expect(rows[0]).toEqual({ a: 9007199254740991, b: 12.5 });
  });
});

describe('PGlite thread failures', () => {
  it('fails the pending and later queries when the thread dies', async () => {
    const thread = await PGliteThread.start();
    const db = new Kysely<T>({ dialect: new PGliteDialect(thread) });
    const pending = sql`select count(*) from generate_series(1, 50000000)`.execute(db);
    await (thread as unknown as { worker: Worker }).worker.terminate();
    await expect(pending).rejects.toBeInstanceOf(PGliteStoppedError);
    await expect(sql`select 1`.execute(db)).rejects.toBeInstanceOf(PGliteStoppedError);
    await db.destroy();
  });

  it('rejects start() when PostgreSQL cannot start', async () => {
    await expect(PGliteThread.start({ settings: ['shared_buffers=nonsense'] })).rejects.toThrow();
  });

  it('refuses queries after close, and closes twice', async () => {
    const thread = await PGliteThread.start();
    expect((await thread.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await Promise.all([thread.close(), thread.close()]);
    expect(thread.closed).toBe(true);
    await expect(thread.query('select 1')).rejects.toBeInstanceOf(PGliteStoppedError);
  });
});

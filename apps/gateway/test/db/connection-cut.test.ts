// PostgreSQL connections cut under running queries (a server crash or a network failure, through a
// TCP proxy in front of the real server, which keeps serving everyone else): the queries fail, the
// process does not crash on the clients' 'error' events, and the database works again once the
// server is reachable.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';
import { startTcpProxy, type TcpProxy } from '../limits/tcp-proxy.js';
import { type FreshDatabase, freshDatabase } from '../support/databases.js';

describe.skipIf(!process.env.DATABASE_URL)(
  'connections cut under running queries (skipped unless DATABASE_URL is set)',
  () => {
    let fresh: FreshDatabase;
    let proxy: TcpProxy;
    let database: Database;
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);

    beforeAll(async () => {
      fresh = await freshDatabase({ name: 'postgres' });
      const direct = new URL(fresh.databaseUrl!);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(direct);
      viaProxy.port = new URL(proxy.url).port;
      database = await createDatabase({ databaseUrl: viaProxy.toString() });
      process.on('uncaughtException', onUncaught);
    });
    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      await database?.close();
      await proxy?.close();
      await fresh?.drop();
    });

    it('fails the queries, keeps the process alive and reconnects', async () => {
      const running = Array.from({ length: 3 }, () =>
        sql`select pg_sleep(5)`.execute(database.db).then(
          () => 'finished',
          (err: Error) => err.message,
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      await proxy.cut();
      const outcomes = await Promise.all(running);
      expect(outcomes).toEqual(outcomes.map(() => expect.stringMatching(/terminated/i)));
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);

      await proxy.restore();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    });
  },
);

// A gateway whose PostgreSQL goes away (through a TCP proxy in front of the real server, which keeps
// serving everyone else) answers 503 temporarily_unavailable with Retry-After — a retryable status
// in the documented shape, not a 500 — and serves again once the database is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/index.js';
import { startTcpProxy, type TcpProxy } from '../limits/tcp-proxy.js';

describe.skipIf(!process.env.DATABASE_URL)(
  'the database unreachable (skipped unless DATABASE_URL is set)',
  () => {
    let proxy: TcpProxy;
    let gw: TestGateway;
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;

    beforeAll(async () => {
      fresh = await freshDatabase({ name: 'postgres' });
      const direct = new URL(fresh.databaseUrl!);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(direct);
      viaProxy.port = new URL(proxy.url).port;
      gw = await startTestGateway({ config: { databaseUrl: viaProxy.toString() } });
    });
    afterAll(async () => {
      await gw?.close();
      await proxy?.close();
      await fresh?.drop();
    });

    it('answers 503 temporarily_unavailable with Retry-After, then serves again', async () => {
      const { key } = await gw.createKey();
      const balance = () => gw.fetch('/v1/dashboard/billing/credit_grants', { key });
      expect((await balance()).status).toBe(200);

      await proxy.cut();
      const res = await balance();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toEqual({
        error: {
          message: expect.any(String),
          type: 'overloaded_error',
          code: 'temporarily_unavailable',
          param: null,
        },
      });

      await proxy.restore();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await balance()).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    });
  },
);

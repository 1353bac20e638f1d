// A gateway whose PostgreSQL goes away (through a TCP proxy in front of the real server, which keeps
// serving everyone else) answers 503 temporarily_unavailable with Retry-After — a retryable status
// in the documented shape, not a 500 — on the API and on the CDN listener, and serves again once
// the database is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../limits/tcp-proxy.js';
import { freshDatabase } from '../support/databases.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { PNG_1X1 } from '../support/video-gateway.js';

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
      // Logged as an expected outage (a warning without a stack), not as an unhandled error.
      const rid = res.headers.get('x-request-id');
      expect(
        gw.logs.find((l) => l.request_id === rid && l.msg === 'database unreachable'),
      ).toMatchObject({ level: 'warn' });
      expect(
        gw.logs.find((l) => l.request_id === rid && l.msg === 'unhandled error'),
      ).toBeUndefined();
      expect(await res.json()).toEqual({
        error: {
          message: expect.any(String),
          type: 'overloaded_error',
          code: 'temporarily_unavailable',
          param: null,
        },
      });

      await proxy.restore();
      await waitForStatus(balance, 200);
    });

    it('answers 503 with Retry-After on the CDN listener, then serves the file again', async () => {
      const { key } = await gw.createKey();
      const form = new FormData();
      form.set('purpose', 'image');
      form.set('file', new Blob([PNG_1X1], { type: 'image/png' }), 'frame.png');
      const uploaded = await gw.fetch('/v1/files', { key, method: 'POST', body: form });
      expect(uploaded.status).toBe(200);
      const { url } = (await uploaded.json()) as { url: string };
      const download = () => fetch(`${gw.cdnListenerUrl}${new URL(url).pathname}`);

      await proxy.cut();
      const res = await download();
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');

      await proxy.restore();
      await waitForStatus(download, 200);
    });
  },
);

/** Polls `request` until it answers `status` (the pool reconnects on its own). */
async function waitForStatus(request: () => Promise<Response>, status: number): Promise<void> {
  let last = 0;
  for (let i = 0; i < 50 && last !== status; i++) {
    last = (await request()).status;
    if (last !== status) await new Promise((r) => setTimeout(r, 100));
  }
  expect(last).toBe(status);
}

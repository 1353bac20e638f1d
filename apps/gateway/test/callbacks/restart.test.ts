// A delivery survives the gateway's death: the receiver is down, the gateway (a child process) tries,
// is SIGKILLed, and after a restart on the same database the receiver — now up — gets the event.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCallback } from '@modelgate/callbacks';
import type { CallbackDeliveryList } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../provider-sim/src/index.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import {
  buildGatewayMain,
  type ChildGateway,
  freePort,
  startChildGateway,
} from '../support/child-gateway.js';
import { type DatabaseTarget, eachDatabase, freshDatabase } from '../support/index.js';
import { simulatorProviderEnv } from '../support/video-gateway.js';
import { type Receiver, startReceiver } from './receiver.js';

/** SIGKILLs the child (if it still runs) and waits for it to be gone. */
async function kill(child: ChildGateway): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGKILL');
  }
  await child.exited;
}

describe.each(eachDatabase())(
  'callback delivery across a SIGKILL on $name',
  (target: DatabaseTarget) => {
    let built: Awaited<ReturnType<typeof buildGatewayMain>>;
    let sim: Awaited<ReturnType<typeof startSimulator>>;
    let dataDir: string;
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let child: ChildGateway | undefined;
    let receiver: Receiver | undefined;

    beforeAll(async () => {
      [built, sim, dataDir, fresh] = await Promise.all([
        buildGatewayMain(),
        startSimulator({ video: { processingMs: 100 } }),
        mkdtemp(join(tmpdir(), 'mg-cb-restart-')),
        freshDatabase(target),
      ]);
    });
    afterAll(async () => {
      if (child) await kill(child);
      await receiver?.close();
      await sim?.close();
      await fresh?.drop();
      await built?.cleanup();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    // Two cold starts on fresh on-disk PGlite (initdb in a child process each): slow on a busy machine.
    it('delivers the event after a restart, with the webhook-id of the attempts before the kill', {
      timeout: 120_000,
    }, async () => {
      const adminKey = generateApiKey();
      const env: Record<string, string> = {
        ...simulatorProviderEnv(sim.url),
        PORT: String(await freePort()),
        CDN_PORT: String(await freePort()),
        GATEWAY_ADMIN_KEY: adminKey,
        MODELGATE_DATA_DIR: dataDir,
        ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
        LOG_LEVEL: 'debug',
        MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
        // Plenty of quick retries: the delivery must still be pending when the gateway comes back.
        MODELGATE_CALLBACK_RETRY_SCHEDULE: new Array(60).fill('250ms').join(','),
        MODELGATE_CALLBACK_POLL_INTERVAL: '50ms',
        MODELGATE_VIDEO_POLL_INTERVAL_MS: '50',
      };
      const api = (path: string, key: string, init: RequestInit = {}) =>
        fetch(`${child!.url}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        });

      // A port nobody listens on yet: the receiver is down.
      const probe = await startReceiver();
      const port = probe.port;
      const callbackUrl = probe.url;
      await probe.close();

      child = await startChildGateway(built.main, env);
      const token = (await (
        await api('/v1/token', adminKey, {
          method: 'POST',
          body: JSON.stringify({ name: 'restart', quota: 500_000_000 }),
        })
      ).json()) as { key: string; callback_secret: string };
      const submit = await api('/v1/video/generations', token.key, {
        method: 'POST',
        body: JSON.stringify({ model: 'kling-v3', prompt: 'a storm', callback_url: callbackUrl }),
      });
      expect(submit.status).toBe(200);
      const { task_id: taskId } = (await submit.json()) as { task_id: string };

      // Wait until the gateway has tried (and failed) to reach the receiver.
      let before: CallbackDeliveryList | undefined;
      for (let i = 0; i < 300; i++) {
        before = (await (
          await api(`/v1/callbacks/deliveries?task_id=${taskId}`, token.key)
        ).json()) as CallbackDeliveryList;
        if ((before.data[0]?.attempts.length ?? 0) >= 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const delivery = before!.data[0]!;
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: 'connection_error' });

      await kill(child);
      expect(child.process.signalCode).toBe('SIGKILL');
      child = undefined;

      receiver = await startReceiver(() => 200, { port });
      child = await startChildGateway(built.main, env);
      const [request] = await receiver.waitFor(1, 30_000);
      expect(request!.headers['webhook-id']).toBe(delivery.id);
      const event = await verifyCallback({
        body: request!.body,
        headers: request!.headers,
        secret: token.callback_secret,
      });
      if (event.type === 'budget.threshold') throw new Error('a budget alert, not the task event');
      expect(event.data.task_id).toBe(taskId);
      expect(event.type).toBe(`video.task.${event.data.status}`);

      let after: CallbackDeliveryList | undefined;
      for (let i = 0; i < 100; i++) {
        after = (await (
          await api(`/v1/callbacks/deliveries?task_id=${taskId}`, token.key)
        ).json()) as CallbackDeliveryList;
        if (after.data[0]?.status === 'delivered') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(after!.data[0]!.status).toBe('delivered');
      expect(after!.data[0]!.attempts.at(-1)?.status_code).toBe(200);
      expect(after!.data[0]!.attempts.length).toBeGreaterThanOrEqual(2);
    });
  },
);

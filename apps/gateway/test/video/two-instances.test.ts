// Two gateway instances on one PostgreSQL process 200 video tasks: every task is held by one
// instance at a time (claims recorded by each engine) and finished exactly once. Each has its own
// data directory; files are shared through an S3-compatible store (s3rver) and one public CDN_URL,
// so a file uploaded through one instance is served and used by the other.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../provider-sim/src/index.js';
import { type Gateway, startGateway } from '../../src/index.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import { createLogger } from '../../src/observability/logger.js';
import { VIDEO_MODELS } from '../../src/video/models.js';
import { freshDatabase } from '../support/index.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { type Json, PNG_1X1, simulatorProviderEnv } from '../support/video-gateway.js';

const TASKS = 200;
/** The address clients see in front of both instances (a load balancer in production). */
const PUBLIC_CDN = 'http://cdn.modelgate.test';

async function waitFinalOn(gw: Gateway, key: string, taskId: string): Promise<Json> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(`${gw.url}/v1/video/generations/${taskId}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const task = (await res.json()) as Json;
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    if (Date.now() > until) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!process.env.DATABASE_URL)(
  'two gateway instances on one PostgreSQL (skipped unless DATABASE_URL is set)',
  () => {
    let sim: Awaited<ReturnType<typeof startSimulator>>;
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let s3: TestS3Server;
    const dataDirs: string[] = [];
    const gateways: Gateway[] = [];

    beforeAll(async () => {
      sim = await startSimulator({ video: { processingMs: 200 } });
      s3 = await startS3Server();
      fresh = await freshDatabase({ name: 'postgres' });
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(join(tmpdir(), `mg-two-${i}-`));
        dataDirs.push(dataDir);
        gateways.push(
          await startGateway({
            env: {
              ...simulatorProviderEnv(sim.url),
              MODELGATE_VIDEO_POLL_INTERVAL_MS: '50',
              MODELGATE_VIDEO_LEASE_MS: '30000',
              MODELGATE_S3_URL: s3.url,
              CDN_URL: PUBLIC_CDN,
              LOG_LEVEL: 'warn',
            },
            log: createLogger({ level: 'error', write: () => {} }),
            config: {
              host: '127.0.0.1',
              port: 0,
              cdnPort: 0,
              databaseUrl: fresh.databaseUrl,
              dataDir,
              adminKey: generateApiKey(),
              drainTimeoutMs: 2_000,
            },
          }),
        );
      }
    }, 60_000);
    afterAll(async () => {
      for (const g of gateways) await g.close();
      await sim?.close();
      await fresh?.drop();
      await s3?.close();
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    });

    it(`processes ${TASKS} tasks, each held by one instance at a time and finished once`, {
      timeout: 180_000,
    }, async () => {
      const [g1, g2] = gateways as [Gateway, Gateway];
      type Event = { kind: 'claimed' | 'released' | 'finished'; task: string; by: string };
      const events: Event[] = [];
      for (const g of gateways) {
        g.services.video.engine.addObserver({
          claimed: (task, by) => events.push({ kind: 'claimed', task, by }),
          released: (task, by) => events.push({ kind: 'released', task, by }),
          finished: (task, _status, by) => events.push({ kind: 'finished', task, by }),
        });
      }
      const { key } = await g1.services.keys.create({ name: 'two', quota: 100_000_000_000 });
      const postsBefore = Object.entries(sim.stats().routes)
        .filter(([route]) => route.startsWith('POST '))
        .reduce((n, [, c]) => n + c, 0);

      const models = Object.values(VIDEO_MODELS).filter((m) => m.imageInput !== 'required');
      const ids: string[] = [];
      for (let batch = 0; batch < TASKS; batch += 20) {
        const results = await Promise.all(
          Array.from({ length: 20 }, async (_, j) => {
            const i = batch + j;
            const gw = i % 2 === 0 ? g1 : g2;
            const res = await fetch(`${gw.url}/v1/video/generations`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ model: models[i % models.length]!.id, prompt: `task ${i}` }),
            });
            expect(res.status).toBe(200);
            return ((await res.json()) as { task_id: string }).task_id;
          }),
        );
        ids.push(...results);
      }

      const db = g1.services.db;
      const until = Date.now() + 150_000;
      for (;;) {
        const open = await db
          .selectFrom('video_tasks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', 'in', ['pending', 'in_progress'])
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        if (Date.now() > until) throw new Error(`${open.n} tasks unfinished`);
        await new Promise((r) => setTimeout(r, 200));
      }

      const rows = await db
        .selectFrom('video_tasks')
        .select(['id', 'status', 'error_message'])
        .execute();
      expect(rows).toHaveLength(TASKS);
      expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);

      // Claims: walk each task's events in order; a claim while another instance holds it is a double claim.
      const holder = new Map<string, string | null>();
      const claimedBy = new Map<string, Set<string>>();
      const finishedCount = new Map<string, number>();
      for (const e of events) {
        if (e.kind === 'claimed') {
          expect(
            holder.get(e.task) ?? null,
            `task ${e.task} claimed by ${e.by} while held`,
          ).toBeNull();
          holder.set(e.task, e.by);
          claimedBy.set(e.task, (claimedBy.get(e.task) ?? new Set()).add(e.by));
        } else if (e.kind === 'released') {
          holder.set(e.task, null);
        } else {
          finishedCount.set(e.task, (finishedCount.get(e.task) ?? 0) + 1);
        }
      }
      for (const id of ids) expect(finishedCount.get(id), id).toBe(1);
      const instances = new Set(events.filter((e) => e.kind === 'claimed').map((e) => e.by));
      expect(instances.size).toBe(2);

      // Billing and upstream: one settlement per task, one upstream submit per task.
      const usage = await db
        .selectFrom('usage')
        .select(['ref'])
        .where('kind', '=', 'video')
        .execute();
      const perTask = new Map<string, number>();
      for (const u of usage) perTask.set(u.ref!, (perTask.get(u.ref!) ?? 0) + 1);
      for (const id of ids) expect(perTask.get(id), id).toBe(1);
      const postsAfter = Object.entries(sim.stats().routes)
        .filter(([route]) => route.startsWith('POST '))
        .reduce((n, [, c]) => n + c, 0);
      expect(postsAfter - postsBefore).toBe(TASKS);
    });

    it('serves and uses a file uploaded through the other instance', async () => {
      const [a, b] = gateways as [Gateway, Gateway];
      const { key } = await a.services.keys.create({ name: 'shared-files', quota: 1_000_000_000 });
      const form = new FormData();
      form.set('purpose', 'image');
      form.set('file', new Blob([new Uint8Array(PNG_1X1)]), 'frame.png');
      const uploaded = await fetch(`${a.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const file = (await uploaded.json()) as Json;
      expect(uploaded.status, JSON.stringify(file)).toBe(200);
      expect(file.url.startsWith(`${PUBLIC_CDN}/files/`)).toBe(true);

      // B's own CDN listener (what the load balancer behind PUBLIC_CDN reaches) has the bytes.
      const path = new URL(file.url).pathname;
      const viaB = await fetch(`${b.cdnListenerUrl}${path}`);
      expect(viaB.status).toBe(200);
      expect(Buffer.from(await viaB.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      const rangeViaB = await fetch(`${b.cdnListenerUrl}${path}`, {
        headers: { range: 'bytes=1-3' },
      });
      expect(await rangeViaB.text()).toBe('PNG');

      // B recognises the URL as one of its files and hands the bytes inline (Veo takes only
      // inline images), read from the shared store.
      const submitted = await fetch(`${b.url}/v1/video/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'veo-3-1', prompt: 'from A', image_url: file.url }),
      });
      const created = (await submitted.json()) as Json;
      expect(submitted.status, JSON.stringify(created)).toBe(200);
      const task = await waitFinalOn(b, key, created.task_id);
      expect(task.status, JSON.stringify(task.error)).toBe('completed');
      expect(task.video.url.startsWith(`${PUBLIC_CDN}/videos/`)).toBe(true);
      const video = await fetch(`${a.cdnListenerUrl}${new URL(task.video.url).pathname}`);
      expect(video.status).toBe(200);
      expect(Buffer.from(await video.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp');
    });
  },
);

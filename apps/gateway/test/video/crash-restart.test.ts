// SIGKILL the gateway while video tasks are in flight, start it again on the same database:
// every task accepted with 200 completes, and none is billed twice. The second test kills it at
// the worst moment: the provider took the submit, the gateway has not recorded the answer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../provider-sim/src/index.js';
import { createDatabase } from '../../src/db/database.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import { VIDEO_MODELS } from '../../src/video/models.js';
import {
  buildGatewayMain,
  type ChildGateway,
  freePort,
  startChildGateway,
} from '../support/child-gateway.js';
import { eachDatabase, freshDatabase } from '../support/index.js';
import { type Json, simulatorProviderEnv } from '../support/video-gateway.js';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

let built: Awaited<ReturnType<typeof buildGatewayMain>>;
beforeAll(async () => {
  built = await buildGatewayMain();
}, 120_000);
afterAll(() => built?.cleanup());

describe.each(eachDatabase())('crash and restart on $name', (database) => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let dataDir: string;
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let child: ChildGateway | null = null;
  const adminKey = generateApiKey();
  let env: Record<string, string>;

  beforeAll(async () => {
    sim = await startSimulator({ video: { processingMs: 1500 } });
    dataDir = await mkdtemp(join(tmpdir(), 'mg-crash-'));
    fresh = await freshDatabase(database);
    env = {
      ...simulatorProviderEnv(sim.url),
      PORT: String(await freePort()),
      CDN_PORT: String(await freePort()),
      GATEWAY_ADMIN_KEY: adminKey,
      MODELGATE_DATA_DIR: dataDir,
      MODELGATE_VIDEO_POLL_INTERVAL_MS: '50',
      MODELGATE_VIDEO_LEASE_MS: '1500',
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    };
  });
  afterAll(async () => {
    child?.process.kill('SIGKILL');
    await sim?.close();
    await fresh?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = (path: string, init: RequestInit & { key: string; json?: unknown }) =>
    fetch(`${child!.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.key}`, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  const createKey = async (name: string) =>
    (
      (await (
        await api('/v1/token', {
          method: 'POST',
          key: adminKey,
          json: { name, quota: 10_000_000_000 },
        })
      ).json()) as Json
    ).key as string;
  const openDatabase = () =>
    createDatabase({
      databaseUrl: fresh.databaseUrl,
      dataDir: fresh.databaseUrl ? null : join(dataDir, 'db'),
    });
  /** Polls the task list until every task of `key` is final (bounded). */
  async function waitAllFinal(key: string, count: number): Promise<Json[]> {
    const until = Date.now() + 60_000;
    for (;;) {
      const list = (await (await api('/v1/video/generations?limit=100', { key })).json()) as Json;
      const tasks: Json[] = list.data;
      if (tasks.length === count && tasks.every((t) => FINAL.has(t.status))) return tasks;
      if (Date.now() > until)
        throw new Error(`unfinished: ${JSON.stringify(tasks.filter((t) => !FINAL.has(t.status)))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('finishes every task exactly once after a SIGKILL', { timeout: 120_000 }, async () => {
    child = await startChildGateway(built.main, env);
    const key = await createKey('crash');

    const models = Object.values(VIDEO_MODELS).filter((m) => m.imageInput !== 'required');
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await api('/v1/video/generations', {
        method: 'POST',
        key,
        json: { model: models[i % models.length]!.id, prompt: `crash ${i}` },
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as Json).task_id);
    }
    // Wait until the engine has taken some upstream, then kill it mid-flight.
    for (let i = 0; i < 100; i++) {
      const list = (await (
        await api('/v1/video/generations?limit=100&status=in_progress', { key })
      ).json()) as Json;
      if (list.data.length >= 4) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const snapshot = (await (await api('/v1/video/generations?limit=100', { key })).json()) as Json;
    expect(snapshot.data.some((t: Json) => !FINAL.has(t.status))).toBe(true);
    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    child = await startChildGateway(built.main, env);
    const tasks = await waitAllFinal(key, ids.length);
    // Even a task the kill caught between "submitting" and "recorded" is resumed and completes.
    for (const t of tasks) expect(t.status, JSON.stringify(t)).toBe('completed');
    const credits = (await (
      await api('/v1/dashboard/billing/credit_grants', { key })
    ).json()) as Json;

    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    child = null;

    // Straight from the database: one settlement or refund per task, and the balance is their sum.
    const db = await openDatabase();
    try {
      const rows = await db.db
        .selectFrom('video_tasks')
        .select(['id', 'status', 'charged_units', 'model', 'params', 'video_duration'])
        .where('id', 'in', ids)
        .execute();
      expect(rows).toHaveLength(ids.length);
      const usage = await db.db
        .selectFrom('usage')
        .select(['ref', 'units'])
        .where('kind', '=', 'video')
        .execute();
      for (const row of rows) {
        const entries = usage.filter((u) => u.ref === row.id);
        expect(entries, row.id).toHaveLength(1);
        expect(Number(entries[0]!.units)).toBe(Number(row.charged_units));
        if (row.status === 'completed') {
          const spec = VIDEO_MODELS[row.model]!;
          const params = row.params as Json;
          const perSecond = spec.unitsPerSecond[params.resolution]!;
          expect(Number(row.charged_units)).toBe(
            Math.min(
              perSecond * params.duration,
              Math.ceil(perSecond * Number(row.video_duration)),
            ),
          );
        } else {
          expect(Number(row.charged_units)).toBe(0);
        }
      }
      const key = await db.db
        .selectFrom('api_keys')
        .select('used')
        .where('name', '=', 'crash')
        .executeTakeFirstOrThrow();
      const total = rows.reduce((sum, r) => sum + Number(r.charged_units), 0);
      expect(Number(key.used)).toBe(total);
      expect(credits.total_used).toBeCloseTo(total / 1_000_000, 6);
    } finally {
      await db.close();
    }
  });
  it('completes a task whose submit the provider took just before a SIGKILL, charged once', {
    timeout: 120_000,
  }, async () => {
    // kling-v3 is found again by its external_task_id; grok-imagine-video has no lookup and
    // is sent again (one extra upstream generation, billed by xAI, never to the user).
    const cases = [
      { model: 'kling-v3', submitRoute: 'POST /kling/v1/videos/text2video', upstreamPosts: 1 },
      {
        model: 'grok-imagine-video',
        submitRoute: 'POST /xai/v1/videos/generations',
        upstreamPosts: 2,
      },
    ];
    const posts = () => cases.map((c) => sim.stats().routes[c.submitRoute] ?? 0);
    child = await startChildGateway(built.main, env);
    const key = await createKey('crash-submit');
    const before = posts();
    // The provider creates the task but its answer never arrives: the gateway is stuck between
    // "submitting" and "recorded the upstream id" until we kill it.
    for (const c of cases) {
      const path = `/${c.submitRoute.split(' /')[1]}`;
      sim.faults.add({ kind: 'lose-response', count: 1, match: { path } });
    }
    const ids: string[] = [];
    for (const c of cases) {
      const res = await api('/v1/video/generations', {
        method: 'POST',
        key,
        json: { model: c.model, prompt: 'crash while submitting' },
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as Json).task_id);
    }
    for (let i = 0; posts().some((n, j) => n === before[j]); i++) {
      if (i > 500) throw new Error(`the submits never reached the simulator: ${posts()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const id of ids) {
      const task = (await (await api(`/v1/video/generations/${id}`, { key })).json()) as Json;
      expect(task.status).toBe('pending');
    }
    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    expect(sim.faults.list()).toHaveLength(0);

    child = await startChildGateway(built.main, env);
    const tasks = await waitAllFinal(key, ids.length);
    for (const t of tasks) expect(t.status, JSON.stringify(t)).toBe('completed');
    const after = posts();
    cases.forEach((c, j) => {
      expect(after[j]! - before[j]!, c.model).toBe(c.upstreamPosts);
    });
    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    child = null;

    const db = await openDatabase();
    try {
      const rows = await db.db
        .selectFrom('video_tasks')
        .select(['id', 'charged_units', 'reserved_units'])
        .where('id', 'in', ids)
        .execute();
      const usage = await db.db
        .selectFrom('usage')
        .select(['ref', 'units'])
        .where('ref', 'in', ids)
        .execute();
      for (const row of rows) {
        const entries = usage.filter((u) => u.ref === row.id);
        expect(entries, row.id).toHaveLength(1);
        expect(Number(entries[0]!.units)).toBe(Number(row.charged_units));
        expect(Number(row.charged_units)).toBeGreaterThan(0);
      }
      const used = await db.db
        .selectFrom('api_keys')
        .select('used')
        .where('name', '=', 'crash-submit')
        .executeTakeFirstOrThrow();
      expect(Number(used.used)).toBe(rows.reduce((sum, r) => sum + Number(r.charged_units), 0));
    } finally {
      await db.close();
    }
  });
});

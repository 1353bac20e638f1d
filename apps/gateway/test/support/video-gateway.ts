// Test support for files + video: a gateway whose providers point at an in-process simulator
// (loaded from the simulator's source, so it is always current), with short poll intervals and
// its own data directory (blobs are checked on disk).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../../provider-sim/src/index.js';
import { type DatabaseTarget, startTestGateway, type TestGateway } from './index.js';

/** Loosely typed JSON from the API, for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions walk arbitrary response bodies.
export type Json = Record<string, any>;

export type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** A valid 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface VideoTestGateway extends TestGateway {
  sim: Simulator;
  dataDir: string;
  /** Every blob file under the data directory (content-addressed store). */
  blobs(): Promise<string[]>;
}

/** Env for a gateway (in-process or child) whose video providers are the simulator. */
export function simulatorProviderEnv(simUrl: string): Record<string, string> {
  return {
    XAI_API_KEY: 'sim-key',
    XAI_BASE_URL: `${simUrl}/xai/v1`,
    GEMINI_API_KEY: 'sim-key',
    GEMINI_BASE_URL: `${simUrl}/gemini/v1beta`,
    KLING_ACCESS_KEY: 'sim-access-key',
    KLING_SECRET_KEY: 'sim-secret-key',
    KLING_BASE_URL: `${simUrl}/kling`,
    ARK_API_KEY: 'sim-key',
    ARK_BASE_URL: `${simUrl}/byteplus/api/v3`,
    MINIMAX_API_KEY: 'sim-key',
    MINIMAX_BASE_URL: `${simUrl}/minimax`,
    DASHSCOPE_API_KEY: 'sim-key',
    DASHSCOPE_BASE_URL: `${simUrl}/dashscope/api/v1`,
    VIDU_API_KEY: 'sim-key',
    VIDU_BASE_URL: `${simUrl}/vidu`,
    RUNWAY_API_KEY: 'sim-key',
    RUNWAY_BASE_URL: `${simUrl}/runway`,
    LUMA_API_KEY: 'sim-key',
    LUMA_BASE_URL: `${simUrl}/luma/dream-machine/v1`,
  };
}

export async function startVideoGateway(
  options: {
    database?: DatabaseTarget;
    env?: Record<string, string>;
    processingMs?: number;
    sim?: Simulator;
  } = {},
): Promise<VideoTestGateway> {
  const sim =
    options.sim ?? (await startSimulator({ video: { processingMs: options.processingMs ?? 150 } }));
  const dataDir = await mkdtemp(join(tmpdir(), 'mg-video-'));
  let gw: TestGateway;
  try {
    gw = await startTestGateway({
      database: options.database,
      simulator: false,
      env: {
        ...simulatorProviderEnv(sim.url),
        MODELGATE_VIDEO_POLL_INTERVAL_MS: '40',
        MODELGATE_VIDEO_LEASE_MS: '5000',
        MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
        ...options.env,
      },
      config: { dataDir, maxUploadBytes: 64 * 1024 },
    });
  } catch (error) {
    if (!options.sim) await sim.close();
    throw error;
  }
  const close = gw.close.bind(gw);
  return Object.assign(gw, {
    sim,
    dataDir,
    async blobs() {
      const out: string[] = [];
      async function walk(dir: string) {
        for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
          if (entry.isDirectory()) await walk(join(dir, entry.name));
          else out.push(join(dir, entry.name));
        }
      }
      await walk(join(dataDir, 'files', 'blobs'));
      return out;
    },
    async close(deadlineMs?: number) {
      await close(deadlineMs);
      if (!options.sim) await sim.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

export async function upload(
  gw: TestGateway,
  key: string,
  bytes: Uint8Array,
  filename: string,
  purpose = 'image',
): Promise<Response> {
  const form = new FormData();
  form.set('purpose', purpose);
  form.set('file', new Blob([new Uint8Array(bytes)]), filename);
  return gw.fetch('/v1/files', { method: 'POST', key, body: form });
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** Polls the task until it is final (or the test times out). */
export async function waitFinal(
  gw: TestGateway,
  key: string,
  taskId: string,
  timeoutMs = 20_000,
): Promise<Json> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await gw.fetch(`/v1/video/generations/${taskId}`, { key });
    const task = (await res.json()) as Json;
    if (res.status !== 200)
      throw new Error(`GET task answered ${res.status}: ${JSON.stringify(task)}`);
    if (FINAL.has(task.status)) return task;
    if (Date.now() > until) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** The key's `used` units, straight from the database. */
export async function usedUnits(gw: TestGateway, keyId: number): Promise<number> {
  // As the balance endpoint does: an idle key's lease goes back first, so `used` reads exact.
  await gw.services.billing.returnIdleLease(keyId);
  const row = await gw.services.db
    .selectFrom('api_keys')
    .select('used')
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

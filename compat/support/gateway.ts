/**
 * The gateway as `pnpm start` runs it, for clients to talk to: the built `main.js` in a child
 * process on this test's Node, with the embedded database in a fresh data directory and the
 * provider simulator as its upstream (demo mode: no provider keys in its environment).
 *
 * @example
 * const gw = await startGateway();
 * const { key } = await gw.createKey({ name: 'agent' });
 * // … point a client at `${gw.url}/v1` with `key` …
 * await gw.close();
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.resolve('@modelgate/gateway'))), 'main.js');
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface StartedGateway {
  /** `http://127.0.0.1:<port>`, without `/v1`. */
  url: string;
  /** The CDN's address (uploaded files, generated images, finished videos). */
  cdnUrl: string;
  adminKey: string;
  /** Everything the gateway printed so far (for a failing test's message). */
  output: string[];
  /** `POST /v1/token` with the admin key. */
  createKey(body?: {
    name?: string;
    quota?: number;
    models?: string[];
    rpm?: number;
    tpm?: number;
  }): Promise<{ id: number; key: string; quota: number }>;
  /** SIGTERM, wait for the drain, remove the data directory. */
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function newKey(): string {
  let key = 'sk-';
  for (let i = 0; i < 48; i++) key += BASE62[randomInt(62)];
  return key;
}

/**
 * How long a start may take before it counts as hung. A cold start alone takes a few seconds
 * (PGlite's first database); in a full test run on two cores, with builds and other files' gateways
 * beside it, starts of over a minute were seen, so the guard is for a hang, not for speed.
 */
const READY_WITHIN_MS = 180_000;

async function waitReady(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const until = Date.now() + READY_WITHIN_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null)
      throw new Error(`gateway exited during start:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(
    `gateway did not become ready in ${READY_WITHIN_MS / 1000} s:\n${output.join('')}`,
  );
}

interface Spawned {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
  url: string;
  cdnUrl: string;
}

/** One start on two ports found free a moment earlier (another process may take one meanwhile). */
async function spawnGateway(
  env: Record<string, string>,
  dataDir: string,
  adminKey: string,
): Promise<Spawned> {
  const [port, cdnPort] = [await freePort(), await freePort()];
  // Only what the gateway needs: no DATABASE_URL, REDIS_URL or provider keys from the test's own
  // environment, so this is the zero-setup start a new user gets.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--liftoff-only', MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      CDN_PORT: String(cdnPort),
      MODELGATE_DATA_DIR: dataDir,
      GATEWAY_ADMIN_KEY: adminKey,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child, output);
  return { child, output, exited, url, cdnUrl: `http://127.0.0.1:${cdnPort}` };
}

/** Starts a demo-mode gateway; `env` adds to (or overrides) its environment. */
export async function startGateway(env: Record<string, string> = {}): Promise<StartedGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mg-compat-'));
  const adminKey = newKey();
  // Test files start gateways side by side: a port taken between finding it free and binding it
  // is tried again on new ports, twice at most.
  let spawned: Spawned | undefined;
  for (let attempt = 1; !spawned; attempt++) {
    try {
      spawned = await spawnGateway(env, dataDir, adminKey);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('already in use')) throw error;
    }
  }
  const { child, output, exited, url, cdnUrl } = spawned;

  return {
    url,
    cdnUrl,
    adminKey,
    output,
    async createKey(body = {}) {
      const res = await fetch(`${url}/v1/token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'compat', quota: 100_000_000, ...body }),
      });
      if (!res.ok) throw new Error(`POST /v1/token: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: number; key: string; quota: number };
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// A real gateway for client tests, in demo mode (in-process provider simulator, PGlite in memory):
// started once per test run by a vitest globalSetup (this package's, and @modelgate/react's and the
// web demo's, which import it), so the tests talk to what users talk to.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '@modelgate/gateway';

export interface GatewayContext {
  url: string;
  cdnUrl: string;
  /** The admin key (makes keys). */
  adminKey: string;
  /** A user key with plenty of credit. */
  apiKey: string;
  /** A user key with no credit at all (every paid request answers 402). */
  brokeKey: string;
}

export interface TestGateway extends GatewayContext {
  close(): Promise<void>;
}

/** Makes a user key with `quota` units through `POST /v1/token`. */
export async function createKey(
  url: string,
  adminKey: string,
  name: string,
  quota: number,
): Promise<string> {
  const res = await fetch(`${url}/v1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, quota }),
  });
  if (!res.ok) throw new Error(`POST /v1/token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

export interface TestGatewayOptions {
  /** Simulated tokens per second of a streamed answer (paced, so a test can stop it midway). */
  tokensPerSecond?: number;
  /** How long the simulated providers take to make a video. */
  videoProcessingMs?: number;
  /** A simulator the test started itself (to add faults); the gateway starts its own without it. */
  simulatorUrl?: string;
}

/** Starts a gateway on 127.0.0.1 (port 0) with two user keys. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mg-clients-'));
  const adminKey = `sk-${randomBytes(48).toString('base64url').replace(/[-_]/g, '0').slice(0, 48)}`;
  const gateway = await startGateway({
    // Not process.env: no provider keys → demo mode; fast video polling for the task tests.
    env: { LOG_LEVEL: 'warn', MODELGATE_VIDEO_POLL_INTERVAL_MS: '100' },
    config: {
      host: '127.0.0.1',
      port: 0,
      cdnPort: 0,
      pgliteDir: 'memory://',
      dataDir,
      adminKey,
      drainTimeoutMs: 1_000,
      ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    },
    simulator: {
      tokensPerSecond: options.tokensPerSecond ?? 40,
      video: { processingMs: options.videoProcessingMs ?? 400 },
    },
  });
  return {
    url: gateway.url,
    cdnUrl: gateway.cdnUrl,
    adminKey,
    apiKey: await createKey(gateway.url, adminKey, 'client-tests', 1_000_000_000),
    brokeKey: await createKey(gateway.url, adminKey, 'client-tests-broke', 0),
    async close() {
      await gateway.close(1_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// One real gateway for the whole run, in demo mode (in-process provider simulator, PGlite in
// memory), started in vitest's main process so its servers use Node's fetch and streams rather than
// the DOM environment's. Tests get its URL and keys through inject('gateway').
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '@modelgate/gateway';
import type { TestProject } from 'vitest/node';

export interface GatewayContext {
  url: string;
  cdnUrl: string;
  /** A user key with plenty of credit. */
  apiKey: string;
  /** A user key with no credit at all (every paid request answers 402). */
  brokeKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: GatewayContext;
  }
}

async function createToken(url: string, adminKey: string, name: string, quota: number) {
  const res = await fetch(`${url}/v1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, quota }),
  });
  if (!res.ok) throw new Error(`POST /v1/token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mg-react-'));
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
    },
    // A paced stream (several chunks, time to press stop) and quick videos.
    simulator: { tokensPerSecond: 40, video: { processingMs: 400 } },
  });
  project.provide('gateway', {
    url: gateway.url,
    cdnUrl: gateway.cdnUrl,
    apiKey: await createToken(gateway.url, adminKey, 'react-tests', 1_000_000_000),
    brokeKey: await createToken(gateway.url, adminKey, 'react-tests-broke', 0),
  });
  return async () => {
    await gateway.close(1_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

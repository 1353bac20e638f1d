// Starts one real gateway for all test files: demo mode (the in-process provider simulator answers),
// PGlite in memory, loopback only. Test files get its URL and keys through `inject('gateway')`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

export interface GatewayInfo {
  url: string;
  /** A user key with 100 credits, made with POST /v1/token. */
  userKey: string;
  /** The bootstrap admin key (no quota: its balance is unlimited). */
  adminKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    gateway: GatewayInfo;
  }
}

interface Gateway {
  url: string;
  close(deadlineMs?: number): Promise<void>;
}

// Long enough that a CLI started after a submission (≈ 1 s on a loaded two-core machine, more at
// worst) still finds the task running to cancel it.
const VIDEO_PROCESSING_MS = 6_000;

/** `sk-` + 48 base62 characters, the gateway's key format. */
function randomKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return `sk-${[...randomBytes(48)].map((b) => alphabet[b % 62]).join('')}`;
}

export default async function setup(project: TestProject) {
  // The gateway ships no .d.ts (it is an app); a variable specifier keeps tsc from looking for one.
  const specifier = '@modelgate/gateway';
  let gatewayModule: { startGateway(options: Record<string, unknown>): Promise<Gateway> };
  try {
    gatewayModule = await import(specifier);
  } catch (err) {
    throw new Error(
      `cannot load ${specifier} (apps/gateway/dist): build it first (\`pnpm turbo run build --filter=@modelgate/ink...\`)`,
      { cause: err },
    );
  }
  const { startGateway } = gatewayModule;
  const dataDir = mkdtempSync(join(tmpdir(), 'modelgate-ink-'));
  const adminKey = randomKey();
  const gateway = await startGateway({
    env: { LOG_LEVEL: 'error', MODELGATE_VIDEO_POLL_INTERVAL_MS: '100' },
    config: {
      host: '127.0.0.1',
      port: 0,
      cdnPort: 0,
      databaseUrl: null,
      pgliteDir: 'memory://',
      dataDir,
      adminKey,
      drainTimeoutMs: 1_000,
    },
    // Paced tokens, so a test can see an answer arrive in pieces; video jobs short enough for a
    // test, long enough to cancel or interrupt one while it runs.
    simulator: { tokensPerSecond: 60, video: { processingMs: VIDEO_PROCESSING_MS } },
  });

  const response = await fetch(`${gateway.url}/v1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ink-tests', quota: 100_000_000 }),
  });
  if (!response.ok) throw new Error(`POST /v1/token: ${response.status} ${await response.text()}`);
  const token = (await response.json()) as { key: string };
  project.provide('gateway', { url: gateway.url, userKey: token.key, adminKey });

  return async () => {
    await gateway.close(1_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

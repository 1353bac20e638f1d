/** Shared pieces of the rate-limit tests: a key with limits, a log collector, metric reads. */
import { createServer } from 'node:net';
import type { AuthKey } from '../../src/keys/keys.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';

let nextId = 1_000_000 + Math.floor(Math.random() * 1_000_000);

/** A key (unique id per call) with the given limits. */
export function limitedKey(limits: { rpm?: number; tpm?: number }): AuthKey {
  return {
    id: nextId++,
    name: 'limits-test',
    role: 'user',
    models: null,
    rpm: limits.rpm ?? null,
    tpm: limits.tpm ?? null,
    expiresAt: null,
  };
}

/** A debug logger whose lines land, parsed, in `lines`. */
export function collectingLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({
    level: 'debug',
    write: (line) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { log, lines };
}

/** The value of an unlabelled metric in Prometheus text, or null when absent. */
export function metricValue(rendered: string, name: string): number | null {
  const line = rendered.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
}

/** A Redis URL on a port nothing listens on (taken from the OS, then released). */
export async function closedPortRedisUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `redis://127.0.0.1:${port}`;
}

/** Run `check` n times (given the attempt number) and return which were allowed. */
export async function attempts(n: number, check: (i: number) => Promise<{ allowed: boolean }>) {
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) out.push((await check(i)).allowed);
  return out;
}

export const count = (allowed: boolean[]) => allowed.filter(Boolean).length;

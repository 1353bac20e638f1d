/**
 * A real gateway for tests: API + CDN listeners on 127.0.0.1 port 0, a fresh database (PGlite in
 * memory by default), a known admin key, a quiet logger, and an in-process provider simulator (demo
 * mode) unless `simulator: false` or provider env is given.
 *
 * @example
 * const gw = await startTestGateway();
 * const { key } = await gw.createKey({ quota: 1_000_000 });
 * const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
 * await gw.close();
 */
import type { Simulator } from '@modelgate/provider-sim';
import type { Config } from '../../src/config/config.js';
import { type Gateway, type RouteGroup, type Stage, startGateway } from '../../src/index.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import type { CreateKeyInput } from '../../src/keys/keys.js';
import { createLogger, type LogLevel } from '../../src/observability/logger.js';
import { type DatabaseTarget, freshDatabase } from './databases.js';

export interface TestGatewayOptions {
  /** Which database (default PGlite). Use with eachDatabase(). */
  database?: DatabaseTarget;
  /** Extra environment (e.g. OPENAI_API_KEY + OPENAI_BASE_URL to leave demo mode). */
  env?: Record<string, string | undefined>;
  /** Config overrides applied last. */
  config?: Partial<Config>;
  /** Start an in-process provider simulator (default true). Its URL: `gw.simulatorUrl`. */
  simulator?: boolean | Record<string, unknown>;
  /** Print logs at this level (default: collect silently into gw.logs). */
  logLevel?: LogLevel;
  /** Extra route groups (e.g. a slow route for drain tests). */
  routes?: RouteGroup[];
  /** Changes the list of stages every request runs (e.g. adds one). */
  stages?: (stages: Stage[]) => Stage[];
}

/** The in-process provider simulator (its `faults` inject upstream failures). */
export type SimulatorHandle = Simulator;

export interface TestGateway extends Gateway {
  adminKey: string;
  simulator: SimulatorHandle | null;
  simulatorUrl: string | null;
  /** Every log line, parsed. */
  logs: Record<string, unknown>[];
  /** Create a key directly (no HTTP); defaults: user role, quota 1e9 units. */
  createKey(input?: Partial<CreateKeyInput>): Promise<{ key: string; id: number }>;
  /** fetch against the gateway: `key` becomes the bearer token; a `json` body is serialized. */
  fetch(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<Response>;
}

async function startSimulator(options: Record<string, unknown>): Promise<SimulatorHandle> {
  const { startSimulator: start } = await import('@modelgate/provider-sim');
  return start({ port: 0, host: '127.0.0.1', ...options });
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const fresh = await freshDatabase(options.database ?? { name: 'pglite' });
  const logs: Record<string, unknown>[] = [];
  const log = createLogger({
    level: options.logLevel ?? 'debug',
    write: options.logLevel
      ? undefined
      : (line) => {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        },
  });
  const env: Record<string, string | undefined> = { LOG_LEVEL: 'info', ...options.env };
  const providerEnvGiven = Object.keys(env).some((k) => /_(API_KEY|ACCESS_KEY)$/.test(k) && env[k]);

  let simulator: SimulatorHandle | null = null;
  if (options.simulator !== false) {
    try {
      simulator = await startSimulator(
        typeof options.simulator === 'object' ? options.simulator : {},
      );
    } catch (err) {
      if (!providerEnvGiven) {
        log.warn('provider simulator unavailable (is apps/provider-sim built?)', { err });
      }
    }
  }

  const adminKey = generateApiKey();
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      env,
      log,
      routes: options.routes,
      stages: options.stages,
      config: {
        host: '127.0.0.1',
        port: 0,
        cdnPort: 0,
        databaseUrl: fresh.databaseUrl,
        pgliteDir: fresh.pgliteDir,
        dataDir: '/tmp/modelgate-test-unused',
        adminKey,
        drainTimeoutMs: 2_000,
        simulatorUrl: simulator?.url ?? null,
        // Without a simulator and without provider env there is nothing to route to: not demo mode.
        ...(simulator || providerEnvGiven ? {} : { demoMode: false }),
        ...(providerEnvGiven ? { demoMode: false } : {}),
        ...options.config,
      },
    });
  } catch (err) {
    await simulator?.close();
    await fresh.drop();
    throw err;
  }

  const base = gateway.url;
  return {
    ...gateway,
    adminKey,
    simulator,
    simulatorUrl: simulator?.url ?? null,
    logs,
    async createKey(input = {}) {
      const { key, record } = await gateway.services.keys.create({
        name: input.name ?? 'test',
        quota: input.quota === undefined ? 1_000_000_000 : input.quota,
        ...input,
      });
      return { key, id: record.id };
    },
    fetch(path, init = {}) {
      const { key, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      let body = rest.body;
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(json);
      }
      return fetch(`${base}${path}`, { ...rest, headers, body });
    },
    async close(deadlineMs) {
      await gateway.close(deadlineMs);
      await simulator?.close();
      await fresh.drop();
    },
  };
}

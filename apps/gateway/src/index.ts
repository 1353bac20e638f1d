/**
 * The gateway as a library: `startGateway()` does everything `node dist/main.js` does, minus signal
 * handling, and hands back the URLs, the admin key and the services (tests use it directly).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { type Config, loadConfig } from './config/config.js';
import { simulatorProviderEnv } from './config/providers-env.js';
import { createDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { cdnErrorHandler } from './files/index.js';
import { createHttp } from './http/app.js';
import type { Stage } from './http/exchange.js';
import type { RouteGroup } from './http/routes/index.js';
import { ensureBootstrapAdmin } from './keys/keys.js';
import { type Listener, listen } from './listen.js';
import { createLogger, type Logger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { createServices, type Services } from './services.js';

export type { Config } from './config/config.js';
export { ConfigError, loadConfig } from './config/config.js';
export type { Stage } from './http/exchange.js';
export type { RouteGroup } from './http/routes/index.js';
export type { Services } from './services.js';

export interface StartGatewayOptions {
  /** Environment to read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Overrides applied after the environment is read (tests: port 0, host, memory PGlite…). */
  config?: Partial<Config>;
  /** Logger (default: JSON lines on stdout at config.logLevel). */
  log?: Logger;
  /**
   * Demo mode only: start the simulator with these options. Tests pass their own simulator URL
   * through `config.simulatorUrl` instead to share one.
   */
  simulator?: Record<string, unknown>;
  /** Extra route groups mounted after the built-in ones (tests, embedding). */
  routes?: RouteGroup[];
  /** Changes the list of stages every request runs through (`http/pipeline.ts`). */
  stages?: (stages: Stage[]) => Stage[];
}

export interface Gateway {
  url: string;
  /** Public base of file and video URLs: CDN_URL, or this instance's CDN listener without it. */
  cdnUrl: string;
  /** This instance's own CDN listener (behind a shared CDN_URL, the address a load balancer targets). */
  cdnListenerUrl: string;
  /** The admin key when it is known to this process (configured, or generated on this start). */
  adminKey: string | null;
  services: Services;
  /** Drain: /readyz → 503, stop accepting, let in-flight work finish (≤ deadline), close the db. */
  close(deadlineMs?: number): Promise<void>;
}

interface SimulatorHandle {
  url: string;
  close(): Promise<void>;
}

async function startDemoSimulator(options: Record<string, unknown> = {}): Promise<SimulatorHandle> {
  // Loaded only in demo mode: a gateway with real providers never pays for the simulator.
  const { startSimulator } = await import('@modelgate/provider-sim');
  return startSimulator({ port: 0, host: '127.0.0.1', ...options });
}

function urlFor(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

function writeAdminKeyFile(dataDir: string, key: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'admin-key');
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/**
 * Start the gateway: config → (demo simulator) → database + migrations → admin key → CDN listener →
 * services → API listener → background work.
 *
 * @example
 * const gw = await startGateway({ config: { port: 0, host: '127.0.0.1', pgliteDir: 'memory://' } });
 * await fetch(`${gw.url}/healthz`);
 * await gw.close();
 */
export async function startGateway(options: StartGatewayOptions = {}): Promise<Gateway> {
  const config: Config = { ...loadConfig(options.env ?? process.env), ...options.config };
  const log = options.log ?? createLogger({ level: config.logLevel });

  let simulator: SimulatorHandle | null = null;
  if (config.demoMode) {
    if (!config.simulatorUrl) {
      simulator = await startDemoSimulator(options.simulator);
      config.simulatorUrl = simulator.url;
    }
    config.providers = simulatorProviderEnv(config.simulatorUrl);
    log.info(
      `demo mode: no provider configured, every model is served by the in-process provider simulator at ${config.simulatorUrl}`,
      { demo: true, simulator_url: config.simulatorUrl },
    );
  } else {
    log.info('starting', { config_file: config.configPath });
  }

  let database: Database | null = null;
  let built: Services | null = null;
  const listeners: Listener[] = [];
  try {
    database = await createDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.pgliteDir,
    });
    const { applied } = await migrate(database.db, database.kind);
    if (applied.length > 0) log.info('migrations applied', { migrations: applied });

    const cdn = new Hono();
    cdn.onError(cdnErrorHandler(log));
    const cdnListener = await listen((req) => cdn.fetch(req), config.cdnPort, config.host, config);
    listeners.push(cdnListener);
    const cdnListenerUrl = urlFor(config.host, cdnListener.port);
    const cdnUrl = config.cdnUrl ?? cdnListenerUrl;

    const metrics = createMetrics();
    const services = await createServices({
      config,
      db: database.db,
      dbKind: database.kind,
      log,
      metrics,
      cdn,
      cdnUrl,
    });
    built = services;

    const { app, edge } = createHttp(services, { routes: options.routes, stages: options.stages });
    const apiListener = await listen(
      (req, env) => app.fetch(req, env),
      config.port,
      config.host,
      config,
      edge,
    );
    listeners.push(apiListener);
    // Only once both ports are ours: a start that fails on a busy port generates no admin key.
    const admin = await ensureBootstrapAdmin(
      database.db,
      database.kind,
      services.keys,
      config.adminKey,
    );
    if (admin.generatedKey) {
      let where = '';
      try {
        where = ` and written to ${writeAdminKeyFile(config.dataDir, admin.generatedKey)} (mode 0600)`;
      } catch (err) {
        log.warn('could not write the admin key file', { err });
      }
      log.info(
        `generated the bootstrap admin key; it is shown only now${where}: ${admin.generatedKey}`,
        { admin_key: admin.generatedKey, admin_key_id: admin.adminKeyId },
      );
    }
    const url = urlFor(config.host, apiListener.port);
    await services.lifecycle.start();
    log.info('listening', {
      url,
      cdn_url: cdnUrl,
      database: database.kind,
      rate_limits: config.redisUrl ? 'redis' : 'memory',
    });

    const db = database;
    let closing: Promise<void> | null = null;
    return {
      url,
      cdnUrl,
      cdnListenerUrl,
      adminKey: config.adminKey ?? admin.generatedKey,
      services,
      close(deadlineMs = config.drainTimeoutMs) {
        closing ??= (async () => {
          services.lifecycle.draining = true;
          const started = Date.now();
          await apiListener.close(deadlineMs);
          await services.lifecycle.stop(log);
          await cdnListener.close(Math.max(0, deadlineMs - (Date.now() - started)));
          await db.close();
          await simulator?.close();
          log.info('stopped');
        })();
        return closing;
      },
    };
  } catch (err) {
    for (const l of listeners) await l.close(0).catch(() => {});
    await built?.lifecycle.stop(log).catch(() => {});
    await database?.close().catch(() => {});
    await simulator?.close().catch(() => {});
    throw err;
  }
}

/**
 * The Services container: everything a route or worker needs, built once at start.
 *
 * Adding a feature: export `create<Feature>Feature(core, needs)` and its `<Feature>Service` from the
 * folder's index.ts, then add ONE field to `Services` and ONE line in `createFeatureServices` below,
 * after the features it is handed (video is built on files and callbacks). Background work
 * (pollers, deliverers) registers with `services.lifecycle.add({ name, start, stop })`: start runs once
 * the listeners are up, stop runs on drain/close before the database closes.
 */
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { startLedger } from './billing/ledger.js';
import { createBudgetAlerts } from './budgets/alerts.js';
import { type CallbacksService, createCallbacksFeature } from './callbacks/index.js';
import type { Config } from './config/config.js';
import { type CoreServices, Lifecycle } from './core-services.js';
import type { DatabaseKind } from './db/database.js';
import type { DB } from './db/schema.js';
import { createEmbeddingsFeature, type EmbeddingsService } from './embeddings/index.js';
import { createFilesFeature, type FilesService } from './files/index.js';
import { createImagesFeature, type ImagesService } from './images/index.js';
import { createKeyService } from './keys/keys.js';
import { createFallbackStore } from './limits/fallback-store.js';
import type { LimitStore } from './limits/gcra.js';
import { createRateLimiter } from './limits/limiter.js';
import { createMemoryStore } from './limits/memory-store.js';
import type { Logger } from './observability/logger.js';
import { type Metrics, registerStandardMetrics } from './observability/metrics.js';
import { createResponsesFeature, type ResponsesService } from './responses/index.js';
import { createTextFeature, type TextService } from './text/index.js';
import { createVideoFeature, type VideoService } from './video/index.js';

/** The full container: core + one field per feature service. */
export interface Services extends CoreServices {
  // ── feature services: each owner adds one field here, e.g. `text: TextService;` ──
  files: FilesService;
  video: VideoService;
  callbacks: CallbacksService;
  text: TextService;
  responses: ResponsesService;
  images: ImagesService;
  embeddings: EmbeddingsService;
}

export interface ServiceDeps {
  config: Config;
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  log: Logger;
  metrics: Metrics;
  cdn: Hono;
  cdnUrl: string;
}

/**
 * Rate-limit buckets: in memory, or in Redis with a per-instance fallback. ioredis is loaded only
 * when Redis is configured: a gateway without it never pays for the module.
 */
async function createLimitStore(deps: ServiceDeps): Promise<LimitStore> {
  if (!deps.config.redisUrl) return createMemoryStore();
  const { createRedisStore } = await import('./limits/redis-store.js');
  const shared = createRedisStore(deps.config.redisUrl, { timeoutMs: deps.config.redisTimeoutMs });
  // Bounded wait so the first requests find the connection up instead of falling back at boot.
  await shared.connected();
  return createFallbackStore({
    shared,
    local: createMemoryStore(),
    log: deps.log.child({ component: 'ratelimit' }),
    metrics: deps.metrics,
  });
}

/** Build the container. The database is open and migrated before this runs. */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const stdMetrics = registerStandardMetrics(deps.metrics);
  const limiter = createRateLimiter({
    store: await createLimitStore(deps),
    prefix: deps.config.redisPrefix,
  });
  const lifecycle = new Lifecycle();
  lifecycle.add({ name: 'limiter', stop: () => limiter.close() });
  const ledger = await startLedger({
    db: deps.db,
    kind: deps.dbKind,
    dataDir: deps.config.dataDir,
    leaseIdleMs: deps.config.leaseIdleMs,
    budgetTimeZone: deps.config.budgets.timeZone,
    budgetAlerts: createBudgetAlerts(deps.db, {
      url: deps.config.budgets.alertUrl,
      secret: deps.config.budgets.alertSecret,
    }),
    metrics: stdMetrics,
    log: deps.log,
  });
  const { billing } = ledger;
  // Stops after the features (reverse order): their last settlements are written before the db closes.
  lifecycle.add({ name: 'billing', stop: () => ledger.stop() });
  const core: CoreServices = {
    ...deps,
    stdMetrics,
    keys: createKeyService(deps.db),
    billing,
    limiter,
    lifecycle,
  };
  try {
    return await createFeatureServices(core);
  } catch (err) {
    // A feature refused to start (e.g. a ConfigError): release what was already built.
    await lifecycle.stop(deps.log);
    throw err;
  }
}

/** Feature wiring: one line per feature service. */
async function createFeatureServices(core: CoreServices): Promise<Services> {
  // Filled in below, one feature at a time; a later feature may use an earlier one.
  const services = { ...core } as Services;
  services.files = await createFilesFeature(core);
  services.callbacks = createCallbacksFeature(core);
  services.text = createTextFeature(services, services.files);
  services.responses = createResponsesFeature(core, services.text);
  const { catalog } = services.text;
  const isTextModel = (id: string) => catalog.resolve(id) !== null;
  services.images = createImagesFeature(
    services,
    services.files,
    services.text.router,
    isTextModel,
  );
  services.embeddings = createEmbeddingsFeature(services, services.text.router, isTextModel);
  services.video = createVideoFeature(core, {
    files: services.files,
    callbacks: services.callbacks,
    isTextModel,
  });
  return services;
}

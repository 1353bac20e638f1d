/**
 * What every feature service is built from: the base services (config, database, keys, billing,
 * limits, metrics, the CDN app) and the lifecycle that starts and stops background work. Feature
 * factories import this module, never `services.ts`, which imports them.
 */
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Billing } from './billing/billing.js';
import type { Config } from './config/config.js';
import type { DatabaseKind } from './db/database.js';
import type { DB } from './db/schema.js';
import type { KeyService } from './keys/keys.js';
import type { RateLimiter } from './limits/limiter.js';
import type { Logger } from './observability/logger.js';
import type { Metrics, StandardMetrics } from './observability/metrics.js';

/** Start/stop hooks for background work. */
export interface LifecycleHook {
  name: string;
  start?(): void | Promise<void>;
  /** Finish or hand back in-flight work; called once, in reverse registration order. */
  stop?(): void | Promise<void>;
}

export class Lifecycle {
  private readonly hooks: LifecycleHook[] = [];
  private started = false;
  /** True once SIGTERM (or close()) began: /readyz answers 503, workers should stop claiming. */
  draining = false;

  add(hook: LifecycleHook): void {
    this.hooks.push(hook);
    if (this.started) void hook.start?.();
  }

  async start(): Promise<void> {
    this.started = true;
    for (const h of this.hooks) await h.start?.();
  }

  async stop(log?: Logger): Promise<void> {
    for (const h of [...this.hooks].reverse()) {
      try {
        await h.stop?.();
      } catch (err) {
        log?.error('lifecycle stop failed', { hook: h.name, err });
      }
    }
  }
}

/** The base services; feature factories receive these (plus any feature built before them). */
export interface CoreServices {
  config: Config;
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  log: Logger;
  /** The registry: `metrics.counter(name, help).inc(labels)`, `metrics.histogram(...)`. */
  metrics: Metrics;
  /** Handles of the standard metrics (http, upstream errors, tokens, quota units). */
  stdMetrics: StandardMetrics;
  keys: KeyService;
  billing: Billing;
  limiter: RateLimiter;
  lifecycle: Lifecycle;
  /**
   * The Hono app served on the CDN listener (CDN_PORT). The files feature mounts the stored files
   * and every blob owner's prefix on it (`/files/:name`, `/videos/:name`) while services are built.
   */
  cdn: Hono;
  /** Public base URL of the CDN (config.cdnUrl or the CDN listener's address), no trailing slash. */
  cdnUrl: string;
}

/**
 * The deliverer: claims due outbox rows (`FOR UPDATE SKIP LOCKED` + a lease, so any number of gateway
 * instances share the work and a crashed one's rows come back), signs and POSTs each, records every
 * attempt, and schedules the next one with jittered backoff until the schedule runs out. Its settings
 * are the configuration's callbacks section (`config/callbacks.ts`) plus what is fixed in code.
 */
import { randomUUID } from 'node:crypto';
import { signCallback } from '@modelgate/callbacks';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { type AddressGuardOptions, CallbackUrlError, checkCallbackUrl } from './address-guard.js';
import { type AttemptError, type PostOutcome, postToTarget } from './http-post.js';
import { signingSecrets } from './secrets.js';

export interface DeliverySettings {
  /** Waits before each retry, in ms: attempt n+1 is due `retryScheduleMs[n-1]` (± jitter) after attempt n. */
  retryScheduleMs: number[];
  /** Fraction of each wait added or removed at random (0.2 → ±20 %), so retries of many deliveries spread out. */
  jitter: number;
  /** Whole-attempt deadline. */
  timeoutMs: number;
  /** How long a claim lasts: an instance that dies mid-attempt hands the row back after this. */
  leaseMs: number;
  /** How often an idle deliverer looks for due rows. */
  pollIntervalMs: number;
  /** Attempts in flight per instance. */
  concurrency: number;
  /** Bytes of a receiver's answer read before hanging up. */
  maxResponseBytes: number;
}

/** The deliverer's settings from the configuration's callbacks section. */
export function deliverySettingsFrom(config: Pick<Config, 'callbacks'>): DeliverySettings {
  const { retryScheduleMs, timeoutMs, pollIntervalMs, concurrency } = config.callbacks;
  return {
    retryScheduleMs,
    jitter: 0.2,
    timeoutMs,
    leaseMs: Math.max(timeoutMs * 3, 30_000),
    pollIntervalMs: Math.max(10, pollIntervalMs),
    concurrency,
    maxResponseBytes: 4096,
  };
}

/** The wait before the next attempt after `attemptsSoFar` failed ones, or null when none is left. */
export function nextDelayMs(
  settings: Pick<DeliverySettings, 'retryScheduleMs' | 'jitter'>,
  attemptsSoFar: number,
  random: () => number = Math.random,
): number | null {
  const base = settings.retryScheduleMs[attemptsSoFar - 1];
  if (base === undefined) return null;
  const spread = base * settings.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}

export interface DelivererDeps {
  db: Kysely<DB>;
  log: Logger;
  metrics?: Metrics;
  settings: DeliverySettings;
  /** The address guard every attempt passes, the same as at submit. */
  guard: AddressGuardOptions;
  /** Signs budget alerts (rows of no key): MODELGATE_BUDGET_ALERT_SECRET. */
  alertSecret?: string | null;
  random?: () => number;
}

export interface Deliverer {
  /** Starts polling for due rows. */
  start(): void;
  /** Stops claiming and waits for the attempts in flight (each bounded by the timeout). */
  stop(): Promise<void>;
  /** Claims one batch and waits until its attempts are recorded; returns how many were claimed. */
  runOnce(): Promise<number>;
}

interface ClaimedRow {
  id: string;
  key_id: number | null;
  url: string;
  payload: string;
  attempt_count: number;
}

const USER_AGENT = 'modelgate-callbacks/1';

const URL_ERRORS: Record<CallbackUrlError['code'], AttemptError> = {
  callback_url_not_allowed: 'address_refused',
  callback_url_unresolvable: 'dns_error',
  invalid_callback_url: 'invalid_url',
};

/**
 * @example
 * const deliverer = createDeliverer({ db, log, settings: deliverySettingsFrom(config), guard: { allowPrivate: false } });
 * deliverer.start();
 * // on shutdown
 * await deliverer.stop();
 */
export function createDeliverer(deps: DelivererDeps): Deliverer {
  const { db, settings } = deps;
  const log = deps.log.child({ component: 'callbacks' });
  const attemptsTotal = deps.metrics?.counter(
    'modelgate_callback_attempts_total',
    'Callback delivery attempts by outcome (delivered | retry | failed).',
  );
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let ticking = false;
  let timer: NodeJS.Timeout | undefined;
  let currentTick: Promise<void> | undefined;

  async function claim(limit: number): Promise<{ rows: ClaimedRow[]; token: string }> {
    const now = Date.now();
    const token = randomUUID();
    const rows = await db
      .updateTable('callback_deliveries')
      .set({ lease_until_ms: now + settings.leaseMs, claim_token: token })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('callback_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at_ms', '<=', now)
          .where((w) => w.or([w('lease_until_ms', 'is', null), w('lease_until_ms', '<=', now)]))
          .orderBy('next_attempt_at_ms')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'key_id', 'url', 'payload', 'attempt_count'])
      .execute();
    return { rows, token };
  }

  /** A task's key's secrets, or for a budget alert (no key) the alert secret. */
  async function secretsFor(row: ClaimedRow): Promise<string[]> {
    if (row.key_id !== null) return signingSecrets(db, row.key_id);
    if (!deps.alertSecret)
      throw new Error('no MODELGATE_BUDGET_ALERT_SECRET to sign a budget alert');
    return [deps.alertSecret];
  }

  async function attempt(row: ClaimedRow, token: string): Promise<void> {
    const atMs = Date.now();
    let outcome: PostOutcome;
    try {
      // Checked again at every attempt: DNS may have changed since submit. The POST goes to the
      // address checked here.
      const target = await checkCallbackUrl(row.url, deps.guard);
      const secrets = await secretsFor(row);
      const signed = await signCallback({
        id: row.id,
        timestamp: new Date(),
        body: row.payload,
        secrets,
      });
      outcome = await postToTarget(target, {
        headers: { ...signed, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: row.payload,
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: settings.maxResponseBytes,
      });
    } catch (error) {
      if (!(error instanceof CallbackUrlError))
        log.error('callback attempt failed', { id: row.id, err: error });
      outcome = {
        statusCode: null,
        error: error instanceof CallbackUrlError ? URL_ERRORS[error.code] : 'internal_error',
        detail: (error as Error).message,
        latencyMs: Date.now() - atMs,
      };
    }
    await record(row, token, atMs, outcome);
  }

  async function record(
    row: ClaimedRow,
    token: string,
    atMs: number,
    outcome: PostOutcome,
  ): Promise<void> {
    const delivered =
      outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const attempts = row.attempt_count + 1;
    const delay = delivered ? null : nextDelayMs(settings, attempts, deps.random);
    const now = Date.now();
    const result = delivered ? 'delivered' : delay === null ? 'failed' : 'retry';
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('callback_attempts')
        .values({
          delivery_id: row.id,
          at_ms: atMs,
          status_code: outcome.statusCode,
          latency_ms: outcome.latencyMs,
          error: outcome.error,
        })
        .execute();
      await trx
        .updateTable('callback_deliveries')
        .set({
          attempt_count: attempts,
          status: delivered ? 'delivered' : delay === null ? 'failed' : 'pending',
          next_attempt_at_ms: delay === null ? null : now + delay,
          delivered_at_ms: delivered ? now : null,
          lease_until_ms: null,
          claim_token: null,
        })
        // A claim that outlived its lease may have been taken over; then the newer claim decides.
        .where('id', '=', row.id)
        .where('claim_token', '=', token)
        .where('status', '=', 'pending')
        .execute();
    });
    attemptsTotal?.inc({ outcome: result });
    log[result === 'failed' ? 'warn' : 'debug']('callback attempt', {
      id: row.id,
      attempt: attempts,
      status_code: outcome.statusCode,
      error: outcome.error,
      detail: outcome.detail,
      outcome: result,
    });
  }

  async function runBatch(limit: number): Promise<Promise<void>[]> {
    const { rows, token } = await claim(limit);
    return rows.map((row) => {
      const work = attempt(row, token).catch((err) => {
        // Recording failed (database down): the lease expires and the row is tried again.
        log.error('recording a callback attempt failed', { id: row.id, err });
      });
      inFlight.add(work);
      void work.finally(() => {
        inFlight.delete(work);
        if (running) schedule(0);
      });
      return work;
    });
  }

  async function tick(): Promise<void> {
    timer = undefined;
    if (!running || ticking) return;
    ticking = true;
    try {
      const free = settings.concurrency - inFlight.size;
      if (free > 0) await runBatch(free);
    } catch (err) {
      log.warn('claiming callbacks failed', { err });
    } finally {
      ticking = false;
      if (running) schedule(settings.pollIntervalMs);
    }
  }

  function schedule(delayMs: number): void {
    if (timer !== undefined) {
      if (delayMs > 0) return;
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      currentTick = tick();
    }, delayMs);
    timer.unref?.();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      // A claim under way still starts its attempts; wait for it, then for them.
      await currentTick;
      await Promise.allSettled([...inFlight]);
    },
    async runOnce() {
      const work = await runBatch(settings.concurrency);
      await Promise.all(work);
      return work.length;
    },
  };
}

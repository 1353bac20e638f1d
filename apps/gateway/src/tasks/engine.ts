import { hostname } from 'node:os';
import { sleep } from '@modelgate/core/retry';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { randomBase62 } from '../files/ids.js';
import {
  type PollResult,
  ProviderError,
  type VideoAdapter,
  type VideoSubmitRequest,
} from '../providers/video/types.js';
import type { VideoTaskRow } from '../video/task-object.js';
import {
  type FinalOutcome,
  finishTask,
  type StoredVideo,
  type TransitionDeps,
} from './transitions.js';

/** Observes what the engine does (tests record claims; metrics could count). */
export interface EngineObserver {
  claimed?(taskId: string, instanceId: string): void;
  released?(taskId: string, instanceId: string): void;
  finished?(taskId: string, status: string, instanceId: string): void;
  /** An upstream call failed (metrics: modelgate_upstream_errors_total{provider, reason}). */
  upstreamError?(provider: string, reason: string): void;
}

export interface EngineLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface TaskEngineOptions {
  /** Delay between polls of one task, and between claim rounds (ms). Default 5000. */
  pollIntervalMs?: number;
  /** How long a claim holds before another instance may take the task (ms). Default 120000. */
  leaseMs?: number;
  /** Tasks processed at once by this instance. Default 32. */
  maxInFlight?: number;
  /** Tasks processed at once per provider by this instance. Default 8. */
  providerConcurrency?: number;
  /** Identifies this instance in `claimed_by`. Default host-pid-random. */
  instanceId?: string;
  /** How long stop() waits for in-flight steps (ms). Default 10000. */
  stopTimeoutMs?: number;
}

export interface TaskEngineDeps extends TransitionDeps {
  db: Kysely<DB>;
  adapterFor(provider: string): VideoAdapter | undefined;
  /** Builds the provider request from the stored params (reads our files for inline images). */
  buildRequest(row: VideoTaskRow): Promise<VideoSubmitRequest>;
  /** Downloads the provider's result into our storage and probes it. */
  storeResult(row: VideoTaskRow, adapter: VideoAdapter, result: PollResult): Promise<StoredVideo>;
  log?: EngineLogger;
  observer?: EngineObserver;
}

/** Thrown by buildRequest when the task cannot be submitted as stored (e.g. its image is gone). */
export class TaskInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TaskEngine {
  readonly instanceId: string;
  start(): void;
  /** Stops claiming and waits for in-flight work (leases lapse for whatever is cut short). */
  stop(): Promise<void>;
  /** Claim now instead of at the next tick (after a submit). */
  wake(): void;
  /** One claim round; resolves when the claimed tasks are processed (tests). */
  runOnce(): Promise<number>;
  /** Adds an observer (metrics, tests recording claims). */
  addObserver(observer: EngineObserver): void;
}

const MAX_PROVIDER_BACKOFF_MS = 60_000;

/**
 * The video task engine. Tasks are rows; every instance runs one engine over the same database.
 *
 * - Claim: `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *` sets
 *   `claimed_by` and `lease_until_ms`, so two instances never take the same row and a crashed
 *   instance's claims lapse when the lease ends.
 * - Submit happens here: `submit_started_at_ms` is set by CAS before the upstream call and
 *   `upstream_id` recorded by CAS after it. A row claimed with the first and not the second (the
 *   instance died or lost its lease in between) is resumed: found upstream by our reference where
 *   the provider has a lookup (`findSubmitted`), sent again otherwise (see README, "What a crash
 *   costs"). Refusals that prove the provider did not take it (429, 503, connection refused)
 *   clear the marker of a first attempt and retry later.
 * - Per-provider back-off after 429/503 and a per-provider concurrency cap.
 * - Every final status goes through `finishTask` (CAS + settle/refund + callback in one transaction).
 *
 * @example
 * const engine = createTaskEngine(deps, { pollIntervalMs: 2000 });
 * engine.start();
 * // … on shutdown
 * await engine.stop();
 */
export function createTaskEngine(
  deps: TaskEngineDeps,
  options: TaskEngineOptions = {},
): TaskEngine {
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxInFlight = options.maxInFlight ?? 32;
  const providerConcurrency = options.providerConcurrency ?? 8;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomBase62(6)}`;
  const { db, log } = deps;
  const observers: EngineObserver[] = deps.observer ? [deps.observer] : [];
  // "claimed" is reported after the claim commits and "released" before the release is written,
  // so a reported holding interval always lies inside the real one.
  const observer: Required<EngineObserver> = {
    claimed: (id, by) => {
      for (const o of observers) o.claimed?.(id, by);
    },
    released: (id, by) => {
      for (const o of observers) o.released?.(id, by);
    },
    finished: (id, status, by) => {
      for (const o of observers) o.finished?.(id, status, by);
    },
    upstreamError: (provider, reason) => {
      for (const o of observers) o.upstreamError?.(provider, reason);
    },
  };

  function reasonOf(error: unknown): string {
    if (error instanceof ProviderError)
      return error.status === 0 ? error.code : `http_${error.status}`;
    return 'error';
  }

  const inFlight = new Map<string, Promise<void>>();
  const perProvider = new Map<string, number>();
  /** provider → {until (ms), strikes} after 429/503. */
  const backoff = new Map<string, { until: number; strikes: number }>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let claiming: Promise<number> | null = null;

  function providerBlocked(provider: string, now: number): boolean {
    const b = backoff.get(provider);
    return (
      (b !== undefined && b.until > now) || (perProvider.get(provider) ?? 0) >= providerConcurrency
    );
  }

  function noteThrottle(provider: string, retryAfterMs?: number): number {
    const prev = backoff.get(provider);
    const strikes = (prev?.strikes ?? 0) + 1;
    const delay = Math.min(
      MAX_PROVIDER_BACKOFF_MS,
      retryAfterMs ?? pollIntervalMs * 2 ** Math.min(strikes, 8),
    );
    backoff.set(provider, { until: Date.now() + delay, strikes });
    return delay;
  }

  function noteSuccess(provider: string): void {
    backoff.delete(provider);
  }

  /** Releases the claim and schedules the next look at the task. */
  async function release(
    id: string,
    delayMs: number,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    observer.released(id, instanceId);
    await db
      .updateTable('video_tasks')
      .set({
        claimed_by: null,
        lease_until_ms: null,
        next_poll_at_ms: Date.now() + delayMs,
        ...extra,
      })
      .where('id', '=', id)
      .where('claimed_by', '=', instanceId)
      .execute();
  }

  async function finish(
    row: VideoTaskRow,
    from: ('pending' | 'in_progress')[],
    outcome: FinalOutcome,
  ) {
    observer.released(row.id, instanceId);
    const done = await finishTask(deps, row.id, from, outcome);
    if (done) {
      observer.finished(row.id, outcome.status, instanceId);
      log?.info('video task finished', {
        task_id: row.id,
        status: outcome.status,
        model: row.model,
      });
    } else {
      await release(row.id, pollIntervalMs);
    }
    return done;
  }

  async function cancelUpstream(adapter: VideoAdapter, upstreamId: string, taskId: string) {
    if (!adapter.cancel) return;
    try {
      await adapter.cancel(upstreamId);
    } catch (error) {
      log?.warn('upstream cancel failed', { task_id: taskId, err: (error as Error).message });
    }
  }

  /** Sets the "submitting" marker by CAS; false when the row moved on (cancelled) meanwhile. */
  async function markSubmitting(id: string): Promise<boolean> {
    const marked = await db
      .updateTable('video_tasks')
      .set({ submit_started_at_ms: Date.now() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('submit_started_at_ms', 'is', null)
      .where('claimed_by', '=', instanceId)
      .executeTakeFirst();
    return Number(marked.numUpdatedRows) === 1;
  }

  /**
   * A submit that an earlier claim started and never recorded (the instance died, or lost its
   * lease, after `submit_started_at_ms` was set): find the upstream task by our reference where the
   * provider can look it up, otherwise send the same request again. The user is charged once
   * either way; without a lookup the provider may bill a duplicate generation.
   */
  async function resumeSubmit(
    row: VideoTaskRow,
    adapter: VideoAdapter,
    request: VideoSubmitRequest,
  ): Promise<string> {
    const reference = row.id;
    const found = await adapter.findSubmitted?.(reference, request);
    if (found) {
      log?.info('interrupted submit found upstream', {
        task_id: row.id,
        provider: adapter.provider,
      });
      return found.upstreamId;
    }
    log?.warn('interrupted submit sent again', {
      task_id: row.id,
      provider: adapter.provider,
      lookup: adapter.findSubmitted ? 'not_found' : 'unsupported',
    });
    try {
      return (await adapter.submit(request, { reference })).upstreamId;
    } catch (error) {
      // The first submit may have landed after the lookup: the provider then refuses the reused
      // reference, and the task it keeps is the one to follow.
      const late =
        adapter.findSubmitted && error instanceof ProviderError && !error.retryable
          ? await adapter.findSubmitted(reference, request)
          : null;
      if (late) return late.upstreamId;
      throw error;
    }
  }

  async function submit(row: VideoTaskRow, adapter: VideoAdapter): Promise<void> {
    if (row.upstream_id) {
      // Submitted, but the status CAS did not land (crash in between): just move it on.
      await db
        .updateTable('video_tasks')
        .set({ status: 'in_progress', updated_at: Math.floor(Date.now() / 1000) })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute();
      return release(row.id, pollIntervalMs);
    }
    // The claim is ours, so a marker left on the row belongs to a submit that was cut short.
    const resuming = row.submit_started_at_ms !== null;
    if (!resuming && !(await markSubmitting(row.id))) return release(row.id, pollIntervalMs);

    let request: VideoSubmitRequest;
    try {
      request = await deps.buildRequest(row);
    } catch (error) {
      const code = error instanceof TaskInputError ? error.code : 'invalid_input';
      await finish(row, ['pending'], { status: 'failed', code, message: (error as Error).message });
      return;
    }
    let upstreamId: string;
    try {
      upstreamId = resuming
        ? await resumeSubmit(row, adapter, request)
        : (await adapter.submit(request, { reference: row.id })).upstreamId;
      noteSuccess(adapter.provider);
    } catch (error) {
      observer.upstreamError(adapter.provider, reasonOf(error));
      if (error instanceof ProviderError && error.retryable) {
        const delay = noteThrottle(adapter.provider, error.retryAfterMs);
        log?.warn('upstream refused a submit; will retry', {
          task_id: row.id,
          provider: adapter.provider,
          status: error.status,
        });
        // A resumed submit keeps its marker: the first attempt may still exist upstream.
        return release(row.id, delay, resuming ? {} : { submit_started_at_ms: null });
      }
      const pe = error instanceof ProviderError ? error : null;
      await finish(row, ['pending'], {
        status: 'failed',
        code: pe ? 'upstream_rejected' : 'upstream_error',
        message: pe ? pe.message : `${adapter.provider}: ${(error as Error).message}`,
      });
      return;
    }
    const recorded = await db
      .updateTable('video_tasks')
      .set({
        upstream_id: upstreamId,
        status: 'in_progress',
        updated_at: Math.floor(Date.now() / 1000),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('upstream_id', 'is', null)
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) {
      // Cancelled while we were submitting: keep the id for the record, cancel upstream.
      await db
        .updateTable('video_tasks')
        .set({ upstream_id: upstreamId })
        .where('id', '=', row.id)
        .where('upstream_id', 'is', null)
        .execute();
      await cancelUpstream(adapter, upstreamId, row.id);
    }
    return release(row.id, pollIntervalMs);
  }

  async function poll(row: VideoTaskRow, adapter: VideoAdapter): Promise<void> {
    const upstreamId = row.upstream_id!;
    if (Date.now() >= Number(row.deadline_at_ms)) {
      await cancelUpstream(adapter, upstreamId, row.id);
      await finish(row, ['in_progress'], {
        status: 'failed',
        code: 'timeout',
        message: `${row.model} did not finish before the deadline; the task was cancelled upstream and refunded.`,
      });
      return;
    }
    let result: PollResult;
    try {
      result = await adapter.poll(upstreamId);
      noteSuccess(adapter.provider);
    } catch (error) {
      observer.upstreamError(adapter.provider, reasonOf(error));
      // A definite refusal (4xx, or a business error in a 200 body such as MiniMax's base_resp)
      // fails the task; transport trouble and 5xx are retried until the deadline.
      if (
        error instanceof ProviderError &&
        !error.retryable &&
        (error.status === 200 ||
          (error.status >= 400 && error.status < 500 && error.status !== 408))
      ) {
        await finish(row, ['in_progress'], {
          status: 'failed',
          code: 'upstream_error',
          message: error.message,
        });
        return;
      }
      const delay =
        error instanceof ProviderError && error.retryable
          ? noteThrottle(adapter.provider, error.retryAfterMs)
          : pollIntervalMs * 2;
      log?.warn('poll failed; will retry', {
        task_id: row.id,
        provider: adapter.provider,
        err: (error as Error).message,
      });
      return release(row.id, delay);
    }
    if (result.state === 'failed') {
      observer.upstreamError(adapter.provider, 'task_failed');
      await finish(row, ['in_progress'], {
        status: 'failed',
        code: result.error?.code ?? 'upstream_failed',
        message: result.error?.message ?? `${adapter.provider}: generation failed`,
      });
      return;
    }
    if (result.state === 'completed' && result.resultUrl) {
      let video: StoredVideo;
      try {
        video = await deps.storeResult(row, adapter, result);
      } catch (error) {
        observer.upstreamError(adapter.provider, 'download_failed');
        if (error instanceof TaskInputError) {
          await finish(row, ['in_progress'], {
            status: 'failed',
            code: error.code,
            message: error.message,
          });
          return;
        }
        if (error instanceof ProviderError && !error.retryable) {
          await finish(row, ['in_progress'], {
            status: 'failed',
            code: 'result_unavailable',
            message: `${error.message} (the finished video could not be downloaded)`,
          });
          return;
        }
        log?.warn('result download failed; will retry', {
          task_id: row.id,
          err: (error as Error).message,
        });
        return release(row.id, pollIntervalMs * 2);
      }
      await finish(row, ['in_progress'], { status: 'completed', video });
      return;
    }
    const progress = Math.max(0, Math.min(99, Math.round(result.progress ?? Number(row.progress))));
    return release(row.id, pollIntervalMs, {
      progress,
      ...(progress !== Number(row.progress) ? { updated_at: Math.floor(Date.now() / 1000) } : {}),
    });
  }

  const slotWaiters = new Map<string, (() => void)[]>();

  /** A per-provider concurrency slot (a claim round may take more rows of one provider than free slots). */
  async function acquireSlot(provider: string): Promise<void> {
    while ((perProvider.get(provider) ?? 0) >= providerConcurrency) {
      await new Promise<void>((resolve) => {
        const queue = slotWaiters.get(provider) ?? [];
        queue.push(resolve);
        slotWaiters.set(provider, queue);
      });
    }
    perProvider.set(provider, (perProvider.get(provider) ?? 0) + 1);
  }

  function releaseSlot(provider: string): void {
    perProvider.set(provider, Math.max(0, (perProvider.get(provider) ?? 1) - 1));
    slotWaiters.get(provider)?.shift()?.();
  }

  /** Keeps the claim alive while a step runs longer than the lease (a big download). */
  function heartbeat(id: string): () => void {
    const timer = setInterval(
      () => {
        void db
          .updateTable('video_tasks')
          .set({ lease_until_ms: Date.now() + leaseMs })
          .where('id', '=', id)
          .where('claimed_by', '=', instanceId)
          .execute()
          .catch(() => {});
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    timer.unref?.();
    return () => clearInterval(timer);
  }

  async function processTask(row: VideoTaskRow): Promise<void> {
    const adapter = deps.adapterFor(row.provider);
    const stopHeartbeat = heartbeat(row.id);
    await acquireSlot(row.provider);
    try {
      if (!adapter) {
        await finish(row, ['pending', 'in_progress'], {
          status: 'failed',
          code: 'provider_not_configured',
          message: `No provider is configured for ${row.model}.`,
        });
        return;
      }
      if (row.status === 'pending') {
        // Not even a resumed submit is worth sending once the deadline has passed.
        if (Date.now() >= Number(row.deadline_at_ms) && row.upstream_id === null) {
          await finish(row, ['pending'], {
            status: 'failed',
            code: 'timeout',
            message: `${row.model}: the task could not be submitted before its deadline; refunded.`,
          });
          return;
        }
        await submit(row, adapter);
      } else {
        await poll(row, adapter);
      }
    } catch (error) {
      log?.error('video task step failed', { task_id: row.id, err: (error as Error).message });
      // Leave the claim to lapse if even the release fails (database down).
      await release(row.id, pollIntervalMs * 2).catch(() => {});
    } finally {
      stopHeartbeat();
      releaseSlot(row.provider);
    }
  }

  async function claim(): Promise<number> {
    const free = maxInFlight - inFlight.size;
    if (free <= 0) return 0;
    const now = Date.now();
    const blocked = [...new Set([...backoff.keys(), ...perProvider.keys()])].filter((p) =>
      providerBlocked(p, now),
    );
    const rows = (
      await sql<VideoTaskRow>`
      update video_tasks
         set claimed_by = ${instanceId}, lease_until_ms = ${now + leaseMs}, poll_count = poll_count + 1
       where id in (
         select id from video_tasks
          where status in ('pending', 'in_progress')
            and next_poll_at_ms <= ${now}
            and (lease_until_ms is null or lease_until_ms < ${now})
            ${blocked.length > 0 ? sql`and provider not in (${sql.join(blocked)})` : sql``}
            ${inFlight.size > 0 ? sql`and id not in (${sql.join([...inFlight.keys()])})` : sql``}
          order by next_poll_at_ms
          limit ${free}
          for update skip locked)
      returning *`.execute(db)
    ).rows;
    for (const row of rows) {
      observer.claimed(row.id, instanceId);
      const work = processTask(row).finally(() => inFlight.delete(row.id));
      inFlight.set(row.id, work);
    }
    return rows.length;
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    await Promise.all([...inFlight.values()]);
    return claimed;
  }

  function schedule(delay: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  function tick(): void {
    timer = null;
    if (!running || claiming) return;
    claiming = claim()
      .catch((error) => {
        log?.error('claiming video tasks failed', { err: (error as Error).message });
        return 0;
      })
      .finally(() => {
        claiming = null;
        // Jitter keeps instances from claiming in lockstep.
        schedule(Math.max(5, pollIntervalMs / 2) * (0.75 + Math.random() * 0.5));
      });
  }

  return {
    instanceId,
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await claiming;
      // Wait for in-flight steps, but not for ever (a long download): whatever is cut short keeps
      // its claim only until the lease ends, then another instance (or the next start) takes it.
      // The race handles the sleep's rejection when `waited` ends it after the steps settled.
      const waited = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight.values()]),
        sleep(stopTimeoutMs, waited.signal),
      ]);
      waited.abort();
    },
    wake() {
      if (running && !claiming) schedule(0);
    },
    runOnce,
    addObserver(o) {
      observers.push(o);
    },
  };
}

/**
 * What a step on a claimed task works with: the engine's dependencies, this instance's claims in
 * the database (taken, kept alive, released), and the step context that releases a task, finishes
 * it or cancels it upstream.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import {
  type PollResult,
  ProviderError,
  type VideoAdapter,
  type VideoSubmitRequest,
} from '../providers/types.js';
import type { VideoTaskRow } from '../tables.js';
import { type FinalOutcome, finishTask, type StoredVideo, type TransitionDeps } from './finish.js';

/** Observes what the engine does (tests record claims; metrics could count). */
export interface EngineObserver {
  claimed?(taskId: string, instanceId: string): void;
  released?(taskId: string, instanceId: string): void;
  finished?(taskId: string, status: string, instanceId: string): void;
  /** An upstream call failed (metrics: modelgate_upstream_errors_total{provider, reason}). */
  upstreamError?(provider: string, reason: string): void;
}

/**
 * One observer that reports to every observer in the list, including those added later.
 * The engine reports "claimed" after the claim commits and "released" before the release is
 * written, so a reported holding interval always lies inside the real one.
 */
export function fanOutObservers(observers: readonly EngineObserver[]): Required<EngineObserver> {
  return {
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
}

export interface EngineLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
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

/** This instance as the holder of task claims. */
export interface Claimant {
  db: Kysely<DB>;
  /** Written to `claimed_by`. */
  instanceId: string;
  /** How long a claim holds before another instance may take the task (ms). */
  leaseMs: number;
}

/** Which due tasks one claim round may take. */
export interface ClaimRound {
  now: number;
  limit: number;
  /** Providers to leave alone (backing off, or at their concurrency cap). */
  skipProviders: string[];
  /** Tasks this instance is still working on. */
  skipTaskIds: string[];
}

/**
 * Claims due tasks: `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *` sets
 * `claimed_by` and `lease_until_ms`, so two instances never take the same row and a crashed
 * instance's claims lapse when the lease ends.
 */
export async function claimDueTasks(
  claimant: Claimant,
  round: ClaimRound,
): Promise<VideoTaskRow[]> {
  const { db, instanceId, leaseMs } = claimant;
  const { now, limit, skipProviders, skipTaskIds } = round;
  const result = await sql<VideoTaskRow>`
      update video_tasks
         set claimed_by = ${instanceId}, lease_until_ms = ${now + leaseMs}, poll_count = poll_count + 1
       where id in (
         select id from video_tasks
          where status in ('pending', 'in_progress')
            and next_poll_at_ms <= ${now}
            and (lease_until_ms is null or lease_until_ms < ${now})
            ${skipProviders.length > 0 ? sql`and provider not in (${sql.join(skipProviders)})` : sql``}
            ${skipTaskIds.length > 0 ? sql`and id not in (${sql.join(skipTaskIds)})` : sql``}
          order by next_poll_at_ms
          limit ${limit}
          for update skip locked)
      returning *`.execute(db);
  return result.rows;
}

/** Gives up our claim on the task and sets when it is next due (with any other columns). */
async function releaseClaim(
  claimant: Claimant,
  taskId: string,
  delayMs: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await claimant.db
    .updateTable('video_tasks')
    .set({
      claimed_by: null,
      lease_until_ms: null,
      next_poll_at_ms: Date.now() + delayMs,
      ...extra,
    })
    .where('id', '=', taskId)
    .where('claimed_by', '=', claimant.instanceId)
    .execute();
}

/**
 * Keeps the claim alive while a step runs longer than the lease (a big download); returns the
 * function that stops it.
 */
export function keepClaimAlive(claimant: Claimant, taskId: string): () => void {
  const { db, instanceId, leaseMs } = claimant;
  const timer = setInterval(
    () => {
      void db
        .updateTable('video_tasks')
        .set({ lease_until_ms: Date.now() + leaseMs })
        .where('id', '=', taskId)
        .where('claimed_by', '=', instanceId)
        .execute()
        .catch(() => {});
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  timer.unref?.();
  return () => clearInterval(timer);
}

/** What a step tells its provider's limits: a refusal backs the provider off, a success ends it. */
export interface ProviderBackoff {
  /** Backs the provider off after a refusal; returns the delay before the task's next try (ms). */
  noteThrottle(provider: string, retryAfterMs?: number): number;
  noteSuccess(provider: string): void;
}

/** What a step on a claimed task (submit, poll) works with. */
export interface StepContext {
  readonly deps: TaskEngineDeps;
  readonly claimant: Claimant;
  /** Delay before the next look at a task that is still running (ms). */
  readonly pollIntervalMs: number;
  readonly limits: ProviderBackoff;
  readonly observer: Required<EngineObserver>;
  /** Releases the claim and schedules the next look at the task. */
  release(taskId: string, delayMs: number, extra?: Record<string, unknown>): Promise<void>;
  /**
   * Moves the task to its final status through `finishTask`; when the row has moved on meanwhile,
   * only releases the claim. Returns the finished row, or null.
   */
  finish(
    row: VideoTaskRow,
    from: ('pending' | 'in_progress')[],
    outcome: FinalOutcome,
  ): Promise<VideoTaskRow | null>;
  /** Cancels the upstream task where the provider can; a failure is only logged. */
  cancelUpstream(adapter: VideoAdapter, upstreamId: string, taskId: string): Promise<void>;
}
/** The `reason` label of an upstream error. */
export function upstreamErrorReason(error: unknown): string {
  if (error instanceof ProviderError)
    return error.status === 0 ? error.code : `http_${error.status}`;
  return 'error';
}

/** Builds the step context over the engine's dependencies and this instance's claims. */
export function createStepContext(
  deps: TaskEngineDeps,
  claimant: Claimant,
  pollIntervalMs: number,
  limits: ProviderBackoff,
  observer: Required<EngineObserver>,
): StepContext {
  const { instanceId } = claimant;
  const { log } = deps;

  async function release(taskId: string, delayMs: number, extra?: Record<string, unknown>) {
    observer.released(taskId, instanceId);
    await releaseClaim(claimant, taskId, delayMs, extra);
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

  return { deps, claimant, pollIntervalMs, limits, observer, release, finish, cancelUpstream };
}

/** What the engine is built from and what it offers: its dependencies, options, observers and interface. */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { PollResult, VideoAdapter, VideoSubmitRequest } from '../providers/types.js';
import type { VideoTaskRow } from '../task-object.js';
import type { StoredVideo, TransitionDeps } from './finish.js';

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

import type { VideoTaskCreated, VideoTaskList } from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { Billing } from '../billing/billing.js';
import type { DB } from '../db/schema.js';
import type { FilesService } from '../files/index.js';
import type { AuthKey } from '../keys/keys.js';
import { cancelOwnedTask } from './engine/cancel.js';
import {
  createTaskEngine,
  type EngineLogger,
  type EngineObserver,
  type TaskEngine,
  type TaskEngineOptions,
} from './engine/engine.js';
import type { EnqueueCallback, TransitionDeps } from './engine/finish.js';
import { createRequestBuilder } from './engine/request.js';
import { createResultStore } from './engine/result.js';
import type { VideoAdapter, VideoProviderConfig } from './providers/types.js';
import { VIDEO_MODELS } from './registry.js';
import { submitVideoTask } from './submit/submit.js';
import { toVideoTask, type VideoTaskObject } from './task-object.js';
import {
  findFinishedVideo,
  listOwnedTasks,
  loadOwnedTask,
  type TaskListQuery,
} from './task-queries.js';

export interface VideoService {
  engine: TaskEngine;
  /**
   * Validates, reserves credits and writes the task row (`pending`); the engine submits upstream.
   * @example const created = await video.submit(key, body, req.header('idempotency-key'));
   */
  submit(key: AuthKey, body: unknown, idempotencyKey?: string | null): Promise<VideoTaskCreated>;
  get(keyId: number, taskId: string): Promise<VideoTaskObject>;
  list(keyId: number, query: TaskListQuery): Promise<VideoTaskList>;
  /** pending/in_progress → cancelled (refunded, upstream cancelled where possible); final → 409. */
  cancel(keyId: number, taskId: string): Promise<VideoTaskObject>;
  /** For the CDN: the finished video's blob by its name (`{task_id}.mp4`). */
  findVideo(name: string): Promise<{ sha256: string; size: number; contentType: string } | null>;
}

export interface VideoServiceDeps {
  db: Kysely<DB>;
  billing: Billing;
  files: FilesService;
  cdnUrl: string;
  /** Connection settings per provider name (xai, gemini, kling, …); missing = not configured. */
  providers: Partial<Record<string, VideoProviderConfig>>;
  /** CB's submit-time check; throws ApiError 400 param callback_url. */
  assertCallbackUrlAllowed?: (url: string) => Promise<void>;
  enqueueCallback?: EnqueueCallback;
  engine?: TaskEngineOptions;
  /** Overrides every model's deadline (ms). */
  deadlineMs?: number;
  /** Largest result video accepted from a provider. Default 2 GiB. */
  maxVideoBytes?: number;
  log?: EngineLogger;
  observer?: EngineObserver;
}

/** One adapter per configured provider (several models share a provider). */
function createAdapters(
  providers: Partial<Record<string, VideoProviderConfig>>,
): Map<string, VideoAdapter> {
  const adapters = new Map<string, VideoAdapter>();
  for (const spec of Object.values(VIDEO_MODELS)) {
    const config = providers[spec.provider];
    if (config && !adapters.has(spec.provider))
      adapters.set(spec.provider, spec.createAdapter(config));
  }
  return adapters;
}

/**
 * Video generation: submit (validate, reserve, insert), read, list, cancel, and the engine that
 * drives tasks to a final state.
 *
 * @example
 * const video = createVideoService({ db, billing, files, cdnUrl, providers: { xai: { baseUrl, apiKey } } });
 * video.engine.start();
 */
export function createVideoService(deps: VideoServiceDeps): VideoService {
  const { db, billing, files } = deps;
  const cdnUrl = deps.cdnUrl.replace(/\/+$/, '');
  const adapters = createAdapters(deps.providers);
  const adapterFor = (provider: string) => adapters.get(provider);
  const transitionDeps: TransitionDeps = {
    db,
    billing,
    cdnUrl,
    enqueueCallback: deps.enqueueCallback,
    unitsPerSecond: (model: string, resolution: string) =>
      VIDEO_MODELS[model]?.unitsPerSecond[resolution] ?? 0,
  };
  const engine = createTaskEngine(
    {
      ...transitionDeps,
      adapterFor,
      buildRequest: createRequestBuilder({ files, cdnUrl }),
      storeResult: createResultStore({ files, maxVideoBytes: deps.maxVideoBytes }),
      log: deps.log,
      observer: deps.observer,
    },
    deps.engine,
  );
  const submitDeps = {
    db,
    billing,
    files,
    cdnUrl,
    deadlineMs: deps.deadlineMs,
    assertCallbackUrlAllowed: deps.assertCallbackUrlAllowed,
    isConfigured: (provider: string) => adapters.has(provider),
    wake: () => engine.wake(),
  };
  const cancelDeps = { ...transitionDeps, adapterFor, log: deps.log, observer: deps.observer };

  return {
    engine,
    submit: (key, body, idempotencyKey) => submitVideoTask(submitDeps, key, body, idempotencyKey),
    get: async (keyId, taskId) => toVideoTask(await loadOwnedTask(db, keyId, taskId), cdnUrl),
    list: (keyId, query) => listOwnedTasks(db, cdnUrl, keyId, query),
    cancel: (keyId, taskId) => cancelOwnedTask(cancelDeps, keyId, taskId),
    findVideo: (name) => findFinishedVideo(db, name),
  };
}

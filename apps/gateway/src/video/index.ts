/**
 * The video feature: a submission is checked, priced, reserved and written as a `pending` task
 * (`submit/`); the engine claims it, submits it upstream through the provider's adapter
 * (`providers/`), polls it, stores the finished video in files' blob store and finishes it with its
 * charge and its callback (`engine/`). Built from the core services, files and callbacks.
 */
import type { VideoTaskCreated, VideoTaskList } from '@modelgate/core';
import type { CallbacksService } from '../callbacks/index.js';
import type { CoreServices } from '../core-services.js';
import type { FilesService } from '../files/index.js';
import type { AuthKey } from '../keys/keys.js';
import type { IsTextModel } from '../models/model-kinds.js';
import { cancelOwnedTask } from './engine/cancel.js';
import { createTaskEngine } from './engine/engine.js';
import type { TransitionDeps } from './engine/finish.js';
import { createRequestBuilder } from './engine/request.js';
import { createResultStore } from './engine/result.js';
import type { EngineObserver, TaskEngine } from './engine/types.js';
import { VIDEO_MODELS, videoModelList } from './models.js';
import { configuredAdapters } from './providers/index.js';
import { submitVideoTask } from './submit/submit.js';
import { toVideoTask, type VideoTaskObject } from './task-object.js';
import {
  findFinishedVideo,
  listOwnedTasks,
  loadOwnedTask,
  type TaskListQuery,
  videoRefersTo,
} from './task-queries.js';

export type { VideoTables } from './tables.js';

export interface VideoService {
  /**
   * Validates, reserves credits and writes the task row (`pending`); the engine submits upstream.
   * @example const created = await video.submit(key, body, req.header('idempotency-key'));
   */
  submit(key: AuthKey, body: unknown, idempotencyKey?: string | null): Promise<VideoTaskCreated>;
  get(keyId: number, taskId: string): Promise<VideoTaskObject>;
  list(keyId: number, query: TaskListQuery): Promise<VideoTaskList>;
  /** pending/in_progress → cancelled (refunded, upstream cancelled where possible); final → 409. */
  cancel(keyId: number, taskId: string): Promise<VideoTaskObject>;
  /** The models GET /v1/models lists: those whose provider has credentials. */
  listModels(created?: number): ReturnType<typeof videoModelList>;
  /** Drives tasks to a final state; started and stopped with the gateway. */
  engine: TaskEngine;
}

export type VideoCore = Pick<
  CoreServices,
  'config' | 'db' | 'billing' | 'log' | 'stdMetrics' | 'lifecycle' | 'cdnUrl'
>;

/** What video is handed: where its bytes go, and how its callbacks are checked and written. */
export interface VideoNeeds {
  files: FilesService;
  callbacks: Pick<CallbacksService, 'guardUrl' | 'enqueue'>;
  /** Names the text endpoint when a submit gives a text model's id (the text catalogue). */
  isTextModel?: IsTextModel;
}

/** Largest result video accepted from a provider: 2 GiB. */
const MAX_VIDEO_BYTES = 2 * 1024 ** 3;

/**
 * Builds video on files and callbacks: its finished videos are served by files' CDN, and its engine
 * runs as background work.
 *
 * @example
 * services.video = createVideoFeature(core, { files: services.files, callbacks: services.callbacks });
 */
export function createVideoFeature(
  core: VideoCore,
  { files, callbacks, isTextModel }: VideoNeeds,
  options: { observer?: EngineObserver } = {},
): VideoService {
  const { db, billing } = core;
  const settings = core.config.video;
  const log = core.log.child({ component: 'video' });
  const cdnUrl = core.cdnUrl.replace(/\/+$/, '');
  const adapters = configuredAdapters(core.config.providers, settings.upstreamModels);
  const adapterFor = (provider: string) => adapters.get(provider);
  const transitionDeps: TransitionDeps = {
    db,
    billing,
    cdnUrl,
    enqueueCallback: callbacks.enqueue,
    unitsPerSecond: (model, resolution) => VIDEO_MODELS[model]?.unitsPerSecond[resolution] ?? 0,
  };
  const engine = createTaskEngine(
    {
      ...transitionDeps,
      adapterFor,
      buildRequest: createRequestBuilder({ files, cdnUrl }),
      storeResult: createResultStore({ files, maxVideoBytes: MAX_VIDEO_BYTES }),
      log,
      observer: options.observer,
    },
    {
      pollIntervalMs: settings.pollIntervalMs,
      leaseMs: settings.leaseMs,
      maxInFlight: settings.maxInFlight,
      providerConcurrency: settings.providerConcurrency,
    },
  );
  engine.addObserver({
    upstreamError: (provider, reason) => core.stdMetrics.upstreamErrors.inc({ provider, reason }),
  });
  core.lifecycle.add({ name: 'video-engine', start: engine.start, stop: engine.stop });
  files.addBlobOwner({
    cdnPrefix: 'videos',
    find: (name) => findFinishedVideo(db, name),
    refersTo: videoRefersTo,
  });

  const submitDeps = {
    db,
    billing,
    files,
    cdnUrl,
    deadlineMs: settings.deadlineMs,
    assertCallbackUrlAllowed: callbacks.guardUrl,
    isConfigured: (provider: string) => adapters.has(provider),
    wake: () => engine.wake(),
    isTextModel,
  };
  const cancelDeps = { ...transitionDeps, adapterFor, log, observer: options.observer };
  return {
    engine,
    submit: (key, body, idempotencyKey) => submitVideoTask(submitDeps, key, body, idempotencyKey),
    get: async (keyId, taskId) => toVideoTask(await loadOwnedTask(db, keyId, taskId), cdnUrl),
    list: (keyId, query) => listOwnedTasks(db, cdnUrl, keyId, query),
    cancel: (keyId, taskId) => cancelOwnedTask(cancelDeps, keyId, taskId),
    listModels: (created) =>
      videoModelList(created).filter((m) => adapters.has(VIDEO_MODELS[m.id]!.provider)),
  };
}

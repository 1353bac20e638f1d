/**
 * The video feature: a submission is checked, priced, reserved and written as a `pending` task
 * (`submit/`); the engine claims it, submits it upstream through the provider's adapter
 * (`providers/`), polls it, stores the finished video in files' blob store and finishes it with its
 * charge and its callback (`engine/`). Built from the core services, files, callbacks and one
 * adapter per provider the configuration gives credentials for.
 */
import type { VideoTaskCreated, VideoTaskList } from '@modelgate/core';
import type { CallbacksService } from '../callbacks/index.js';
import { ConfigError } from '../config/config.js';
import type { ProviderEnv } from '../config/providers-env.js';
import type { CoreServices } from '../core-services.js';
import type { FilesService } from '../files/index.js';
import type { AuthKey } from '../keys/keys.js';
import type { IsTextModel } from '../models/model-kinds.js';
import { cancelOwnedTask } from './engine/cancel.js';
import { createTaskEngine, type TaskEngine } from './engine/engine.js';
import type { TransitionDeps } from './engine/finish.js';
import { createResultStore } from './engine/result.js';
import type { EngineObserver } from './engine/step.js';
import { createRequestBuilder } from './engine/submit.js';
import { VIDEO_MODELS, type VideoProviderName, videoModelList } from './models.js';
import { createBytePlusAdapter } from './providers/byteplus.js';
import { createDashScopeAdapter } from './providers/dashscope.js';
import { createGeminiAdapter } from './providers/gemini.js';
import { createKlingAdapter } from './providers/kling.js';
import { createLumaAdapter } from './providers/luma.js';
import { createMiniMaxAdapter } from './providers/minimax.js';
import { createRunwayAdapter } from './providers/runway.js';
import type { VideoAdapter, VideoProviderConfig } from './providers/types.js';
import { createViduAdapter } from './providers/vidu.js';
import { createXaiAdapter } from './providers/xai.js';
import { submitVideoTask } from './submit/submit.js';
import { toVideoTask, type VideoTaskObject } from './tables.js';
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

/**
 * The adapter factory of each provider.
 *
 * @example
 * const adapter = VIDEO_ADAPTERS.xai({ baseUrl: 'https://api.x.ai/v1', apiKey });
 */
export const VIDEO_ADAPTERS: Record<
  VideoProviderName,
  (config: VideoProviderConfig) => VideoAdapter
> = {
  xai: createXaiAdapter,
  gemini: createGeminiAdapter,
  kling: createKlingAdapter,
  byteplus: createBytePlusAdapter,
  minimax: createMiniMaxAdapter,
  dashscope: createDashScopeAdapter,
  vidu: createViduAdapter,
  runway: createRunwayAdapter,
  luma: createLumaAdapter,
};

/** Provider connection settings for the configured video providers (with upstream model overrides). */
export function videoProviderConfigs(
  env: ProviderEnv,
  upstreamModels: Record<string, string> = {},
): Record<string, VideoProviderConfig> {
  const out: Record<string, VideoProviderConfig> = {};
  for (const name of [
    'xai',
    'gemini',
    'byteplus',
    'minimax',
    'dashscope',
    'vidu',
    'runway',
    'luma',
  ] as const) {
    const p = env[name];
    if (p.configured && p.apiKey) out[name] = { baseUrl: p.baseUrl, apiKey: p.apiKey };
  }
  if (env.kling.configured && env.kling.accessKey && env.kling.secretKey) {
    out.kling = {
      baseUrl: env.kling.baseUrl,
      accessKey: env.kling.accessKey,
      secretKey: env.kling.secretKey,
    };
  }
  for (const [model, upstream] of Object.entries(upstreamModels)) {
    const spec = VIDEO_MODELS[model];
    if (!spec) {
      throw new ConfigError(
        `MODELGATE_CONFIG: video.upstream_models.${model}: not a video model (${Object.keys(VIDEO_MODELS).join(', ')})`,
      );
    }
    const config = out[spec.provider];
    if (config) config.upstreamModel = upstream;
  }
  return out;
}

/**
 * One adapter per provider with credentials (several models share a provider).
 *
 * @example
 * const adapters = configuredAdapters(config.providers, config.video.upstreamModels);
 * adapters.get('kling')?.submit(request, { reference: taskId });
 */
export function configuredAdapters(
  env: ProviderEnv,
  upstreamModels: Record<string, string>,
): Map<string, VideoAdapter> {
  const configs = videoProviderConfigs(env, upstreamModels);
  const adapters = new Map<string, VideoAdapter>();
  for (const [provider, create] of Object.entries(VIDEO_ADAPTERS)) {
    const config = configs[provider];
    if (config) adapters.set(provider, create(config));
  }
  return adapters;
}

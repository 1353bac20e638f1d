/**
 * Wiring of video into the gateway's Services: the providers from the environment (or the simulator
 * in demo mode), the finished videos served by files' CDN, and the task engine as a lifecycle hook.
 */
import type { CallbacksService } from '../callbacks/index.js';
import { ConfigError } from '../config/config.js';
import type { ProviderEnv } from '../config/providers-env.js';
import type { CoreServices } from '../core-services.js';
import type { FilesService } from '../files/index.js';
import type { EngineObserver } from './engine/engine.js';
import type { VideoProviderConfig } from './providers/types.js';
import { VIDEO_MODELS, videoModelList } from './registry.js';
import { createVideoService, type VideoService } from './service.js';
import { videoRefersTo } from './task-queries.js';

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

/** The video service plus `listModels()` for TEXT's GET /v1/models. */
export type VideoFeature = VideoService & { listModels: typeof videoModelList };

/**
 * services.video; also serves finished videos on files' CDN and registers the engine.
 *
 * @example
 * services.video = createVideoFeature(services, services.files, services.callbacks);
 */
export function createVideoFeature(
  services: CoreServices,
  files: FilesService,
  callbacks: Pick<CallbacksService, 'guardUrl' | 'enqueue'>,
  options: { observer?: EngineObserver } = {},
): VideoFeature {
  const settings = services.config.video;
  const log = services.log.child({ component: 'video' });
  const video = createVideoService({
    db: services.db,
    billing: services.billing,
    files,
    cdnUrl: services.cdnUrl,
    providers: videoProviderConfigs(services.config.providers, settings.upstreamModels),
    assertCallbackUrlAllowed: callbacks.guardUrl,
    enqueueCallback: callbacks.enqueue,
    engine: {
      pollIntervalMs: settings.pollIntervalMs,
      leaseMs: settings.leaseMs,
      maxInFlight: settings.maxInFlight,
      providerConcurrency: settings.providerConcurrency,
    },
    deadlineMs: settings.deadlineMs,
    log,
    observer: options.observer,
  });

  files.addBlobOwner({
    cdnPrefix: 'videos',
    find: (name) => video.findVideo(name),
    refersTo: (trx, sha256) => videoRefersTo(trx, sha256),
  });

  video.engine.addObserver({
    upstreamError: (provider, reason) =>
      services.stdMetrics.upstreamErrors.inc({ provider, reason }),
  });
  services.lifecycle.add({
    name: 'video-engine',
    start: () => video.engine.start(),
    stop: () => video.engine.stop(),
  });
  // Only models whose provider has credentials: GET /v1/models lists what can be served.
  const served = new Set(
    Object.keys(videoProviderConfigs(services.config.providers, settings.upstreamModels)),
  );
  const listModels: typeof videoModelList = (created) =>
    videoModelList(created).filter((m) => served.has(VIDEO_MODELS[m.id]!.provider));
  return Object.assign(video, { listModels });
}

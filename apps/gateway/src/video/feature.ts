/**
 * Wiring of files + video into the gateway's Services: the files service on the blob store,
 * the CDN routes on the CDN listener, the providers from the environment (or the simulator in demo
 * mode), and the task engine as a lifecycle hook.
 */
import { z } from 'zod';
import { assertCallbackUrlAllowed } from '../callbacks/address-guard.js';
import { enqueueCallback } from '../callbacks/outbox.js';
import { createCdnHandler } from '../cdn/handler.js';
import { ConfigError } from '../config/config.js';
import type { ProviderEnv } from '../config/providers-env.js';
import type { CoreServices } from '../core-services.js';
import { createFilesService, type FilesService } from '../files/service.js';
import type { BlobStore } from '../files/storage.js';
import { VIDEO_MODELS, videoModelList } from '../providers/video/registry.js';
import type { VideoProviderConfig } from '../providers/video/types.js';
import type { EngineObserver } from '../tasks/engine.js';
import { createVideoService, type VideoService } from './service.js';

/** The YAML `video:` section (all optional); env variables win. */
const videoFileSchema = z
  .object({
    poll_interval_ms: z.number().int().min(1).optional(),
    lease_ms: z.number().int().min(100).optional(),
    deadline_ms: z.number().int().min(1).optional(),
    max_in_flight: z.number().int().min(1).optional(),
    provider_concurrency: z.number().int().min(1).optional(),
    /** Upstream model id per gateway model, e.g. `seedance-2: doubao-seedance-2-0-260128`. */
    upstream_models: z.record(z.string(), z.string().min(1)).optional(),
  })
  .strict();

export interface VideoSettings {
  pollIntervalMs: number;
  leaseMs: number;
  deadlineMs: number | undefined;
  maxInFlight: number;
  providerConcurrency: number;
  upstreamModels: Record<string, string>;
}

function envInt(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
    throw new ConfigError(`${name} must be a positive integer (got "${raw}")`);
  }
  return Number(raw);
}

/**
 * Engine settings: MODELGATE_VIDEO_POLL_INTERVAL_MS (5000), MODELGATE_VIDEO_LEASE_MS (120000),
 * MODELGATE_VIDEO_DEADLINE_MS (per-model default), MODELGATE_VIDEO_MAX_IN_FLIGHT (32),
 * MODELGATE_VIDEO_PROVIDER_CONCURRENCY (8), or the same names in the YAML `video:` section.
 */
export function readVideoSettings(
  env: Record<string, string | undefined>,
  file: unknown,
): VideoSettings {
  const parsed = videoFileSchema.safeParse(file ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`MODELGATE_CONFIG: video.${issue.path.join('.')}: ${issue.message}`);
  }
  const f = parsed.data;
  for (const model of Object.keys(f.upstream_models ?? {})) {
    if (!VIDEO_MODELS[model]) {
      throw new ConfigError(
        `MODELGATE_CONFIG: video.upstream_models.${model}: not a video model (${Object.keys(VIDEO_MODELS).join(', ')})`,
      );
    }
  }
  return {
    pollIntervalMs: envInt(env, 'MODELGATE_VIDEO_POLL_INTERVAL_MS') ?? f.poll_interval_ms ?? 5000,
    leaseMs: envInt(env, 'MODELGATE_VIDEO_LEASE_MS') ?? f.lease_ms ?? 120_000,
    deadlineMs: envInt(env, 'MODELGATE_VIDEO_DEADLINE_MS') ?? f.deadline_ms,
    maxInFlight: envInt(env, 'MODELGATE_VIDEO_MAX_IN_FLIGHT') ?? f.max_in_flight ?? 32,
    providerConcurrency:
      envInt(env, 'MODELGATE_VIDEO_PROVIDER_CONCURRENCY') ?? f.provider_concurrency ?? 8,
    upstreamModels: f.upstream_models ?? {},
  };
}

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
    const config = out[VIDEO_MODELS[model]!.provider];
    if (config) config.upstreamModel = upstream;
  }
  return out;
}

/** services.files on the configured blob store (`files/open-store.ts`). */
export function createFilesFeature(services: CoreServices, store: BlobStore): FilesService {
  return createFilesService({
    db: services.db,
    store,
    cdnUrl: services.cdnUrl,
    maxUploadBytes: services.config.maxUploadBytes,
  });
}

/** The video service plus `listModels()` for TEXT's GET /v1/models. */
export type VideoFeature = VideoService & { listModels: typeof videoModelList };

/**
 * services.video; also mounts the CDN handler (files + videos) and registers the engine.
 *
 * @example
 * services.files = createFilesFeature(services);
 * services.video = createVideoFeature(services, services.files);
 */
export function createVideoFeature(
  services: CoreServices,
  files: FilesService,
  options: { observer?: EngineObserver } = {},
): VideoFeature {
  const settings = readVideoSettings(services.config.env, services.config.file.video);
  const log = services.log.child({ component: 'video' });
  const video = createVideoService({
    db: services.db,
    billing: services.billing,
    files,
    cdnUrl: services.cdnUrl,
    providers: videoProviderConfigs(services.config.providers, settings.upstreamModels),
    assertCallbackUrlAllowed: (url) =>
      assertCallbackUrlAllowed(url, { allowPrivate: services.config.callbackAllowPrivate }),
    enqueueCallback: (trx, args) => enqueueCallback(trx, args),
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

  const handler = createCdnHandler({
    store: files.store,
    async findFile(id, ext) {
      const row = await files.lookupForCdn(id, ext);
      return row
        ? { sha256: row.sha256, size: Number(row.size), contentType: row.mime_type }
        : null;
    },
    findVideo: (taskId) => video.findVideo(taskId),
  });
  services.cdn.on(['GET', 'HEAD'], ['/files/:name', '/videos/:name'], (c) => handler(c.req.raw));

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

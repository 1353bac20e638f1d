/**
 * The video providers: each one's adapter, by the provider's name in the model table, and which of
 * them the configuration gives credentials for.
 */
import { ConfigError } from '../../config/config.js';
import type { ProviderEnv } from '../../config/providers-env.js';
import { VIDEO_MODELS, type VideoProviderName } from '../models.js';
import { createBytePlusAdapter } from './byteplus.js';
import { createDashScopeAdapter } from './dashscope.js';
import { createGeminiAdapter } from './gemini.js';
import { createKlingAdapter } from './kling.js';
import { createLumaAdapter } from './luma.js';
import { createMiniMaxAdapter } from './minimax.js';
import { createRunwayAdapter } from './runway.js';
import type { VideoAdapter, VideoProviderConfig } from './types.js';
import { createViduAdapter } from './vidu.js';
import { createXaiAdapter } from './xai.js';

export {
  type ImageInput,
  type PollResult,
  ProviderError,
  type VideoAdapter,
  type VideoProviderConfig,
  type VideoSubmitRequest,
} from './types.js';

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

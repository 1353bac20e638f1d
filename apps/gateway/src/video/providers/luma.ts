// wire: docs/providers.md#11-luma-dream-machine — Luma Dream Machine API (`ray-2`).
// Source: lumalabs/lumaai-api openapi.yaml @2520034; lumalabs/lumaai-node src/resources/generations/*.ts @be2c3c4.
import {
  asRecord,
  bearerAuth,
  fetchResult,
  imageAsUrlOrDataUri,
  providerApi,
  requireString,
} from './http.js';
import {
  completed,
  failed,
  type PollResult,
  type VideoAdapter,
  type VideoProviderConfig,
} from './types.js';

/**
 * Adapter for `luma-ray-2`: POST /generations/video (201) with `keyframes.frame0/frame1`,
 * `duration` as `"5s"`/`"9s"`; poll GET /generations/{id}; cancel DELETE /generations/{id}.
 *
 * @example
 * const luma = createLumaAdapter({ baseUrl: 'https://api.lumalabs.ai/dream-machine/v1', apiKey: 'luma-…' });
 */
export function createLumaAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'luma';
  const api = providerApi(provider, config, bearerAuth(config));
  const generationPath = (id: string) => `/generations/${encodeURIComponent(id)}`;
  return {
    provider,
    async submit(req) {
      const body: Record<string, unknown> = {
        model: config.upstreamModel ?? 'ray-2',
        prompt: req.prompt,
        duration: `${req.duration}s`,
        resolution: req.resolution,
        aspect_ratio: req.aspectRatio ?? '16:9',
      };
      const keyframes: Record<string, unknown> = {};
      if (req.image) keyframes.frame0 = { type: 'image', url: imageAsUrlOrDataUri(req.image) };
      if (req.lastFrame)
        keyframes.frame1 = { type: 'image', url: imageAsUrlOrDataUri(req.lastFrame) };
      if (Object.keys(keyframes).length > 0) body.keyframes = keyframes;
      const res = await api.post('/generations/video', body);
      return { upstreamId: requireString(provider, asRecord(res.body).id, 'id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(generationPath(upstreamId));
      const generation = asRecord(res.body);
      switch (generation.state) {
        case 'queued':
          return { state: 'pending' };
        case 'completed':
          return completed(
            requireString(provider, asRecord(generation.assets).video, 'assets.video'),
          );
        case 'failed':
          return failed(
            'upstream_failed',
            `luma: ${String(generation.failure_reason ?? 'generation failed')}`,
          );
        default:
          return { state: 'in_progress' };
      }
    },
    async cancel(upstreamId) {
      await api.delete(generationPath(upstreamId));
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

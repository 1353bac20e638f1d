// wire: docs/providers.md#3-xai — xAI video generations (Grok Imagine Video).
// Source: xai-org/xai-sdk-ts spec/openapi.json (video paths), src/resources/videos.ts; xai-sdk-python video.py.
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
 * Adapter for `grok-imagine-video`: POST /videos/generations → {request_id}; GET /videos/{id}
 * answers 202 while pending; `done` carries `video.url`. No cancel route exists.
 *
 * @example
 * const xai = createXaiAdapter({ baseUrl: 'https://api.x.ai/v1', apiKey: 'xai-…' });
 */
export function createXaiAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'xai';
  const api = providerApi(provider, config, bearerAuth(config));
  return {
    provider,
    async submit(req) {
      const body: Record<string, unknown> = {
        model: config.upstreamModel ?? 'grok-imagine-video',
        prompt: req.prompt,
        duration: req.duration,
        resolution: req.resolution,
      };
      // With an image, the image's ratio wins upstream; only send aspect_ratio for text-to-video.
      if (req.image) body.image = { url: imageAsUrlOrDataUri(req.image) };
      else if (req.aspectRatio) body.aspect_ratio = req.aspectRatio;
      const res = await api.post('/videos/generations', body);
      return { upstreamId: requireString(provider, asRecord(res.body).request_id, 'request_id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(`/videos/${encodeURIComponent(upstreamId)}`);
      const body = asRecord(res.body);
      const progress = typeof body.progress === 'number' ? body.progress : undefined;
      if (res.status === 202) return { state: 'pending', progress };
      switch (body.status) {
        case 'pending':
          return { state: progress ? 'in_progress' : 'pending', progress };
        case 'done': {
          const video = asRecord(body.video);
          if (video.respect_moderation === false || typeof video.url !== 'string' || !video.url) {
            return failed('content_moderated', 'xai withheld the video (moderation)');
          }
          return completed(
            video.url,
            typeof video.duration === 'number' ? video.duration : undefined,
          );
        }
        case 'failed': {
          const error = asRecord(body.error);
          return failed(
            String(error.code ?? 'upstream_failed'),
            `xai: ${String(error.message ?? 'generation failed')}`,
          );
        }
        case 'expired':
          return failed('expired', 'xai: the request expired');
        default:
          return { state: 'in_progress', progress };
      }
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

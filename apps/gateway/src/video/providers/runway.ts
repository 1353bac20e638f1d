// wire: docs/providers.md#10-runway — Runway (X-Runway-Version header; gen4_turbo is image-to-video only).
// Source: runwayml/sdk-node src/resources/image-to-video.ts, src/resources/tasks.ts, src/client.ts; docs.dev.runwayml.com/api-details/errors.
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
  ProviderError,
  type VideoAdapter,
  type VideoProviderConfig,
} from './types.js';

export const RUNWAY_API_VERSION = '2024-11-06';

/** Runway's `ratio` (pixel size) by our aspect ratio (gen4_turbo renders 720p-class sizes). */
const RATIOS: Record<string, string> = {
  '16:9': '1280:720',
  '9:16': '720:1280',
  '4:3': '1104:832',
  '3:4': '832:1104',
  '1:1': '960:960',
  '21:9': '1584:672',
};

/**
 * Adapter for `runway-gen4-turbo`: POST /v1/image_to_video, poll GET /v1/tasks/{id}
 * (progress is a 0–1 fraction), cancel DELETE /v1/tasks/{id}.
 *
 * @example
 * const runway = createRunwayAdapter({ baseUrl: 'https://api.dev.runwayml.com', apiKey: 'key_…' });
 */
export function createRunwayAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'runway';
  const api = providerApi(provider, config, {
    ...bearerAuth(config),
    'X-Runway-Version': RUNWAY_API_VERSION,
  });
  const taskPath = (id: string) => `/v1/tasks/${encodeURIComponent(id)}`;
  return {
    provider,
    async submit(req) {
      if (!req.image) {
        throw new ProviderError(
          provider,
          400,
          'image_required',
          'runway gen4_turbo needs an image',
          false,
        );
      }
      const body: Record<string, unknown> = {
        model: config.upstreamModel ?? 'gen4_turbo',
        promptImage: imageAsUrlOrDataUri(req.image),
        promptText: req.prompt,
        ratio: RATIOS[req.aspectRatio ?? '16:9'] ?? RATIOS['16:9'],
        duration: req.duration,
      };
      if (req.seed !== undefined) body.seed = req.seed;
      const res = await api.post('/v1/image_to_video', body);
      return { upstreamId: requireString(provider, asRecord(res.body).id, 'id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(taskPath(upstreamId));
      const task = asRecord(res.body);
      const fraction = typeof task.progress === 'number' ? task.progress : undefined;
      switch (task.status) {
        case 'PENDING':
        case 'THROTTLED':
          return { state: 'pending' };
        case 'SUCCEEDED': {
          const output = Array.isArray(task.output) ? task.output : [];
          return completed(requireString(provider, output[0], 'output[0]'));
        }
        case 'FAILED':
          return failed(
            String(task.failureCode ?? 'upstream_failed'),
            `runway: ${String(task.failure ?? 'task failed')}`,
          );
        case 'CANCELLED':
          return failed('cancelled', 'runway: task was cancelled upstream');
        default:
          return {
            state: 'in_progress',
            progress:
              fraction === undefined
                ? undefined
                : Math.round(Math.min(1, Math.max(0, fraction)) * 100),
          };
      }
    },
    async cancel(upstreamId) {
      await api.delete(taskPath(upstreamId));
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

// wire: docs/providers.md#6-byteplus-modelark-seedance — BytePlus ModelArk content generation tasks (Seedance).
// Source: docs.byteplus.com/docs/ModelArk/1520757 (create), /2291680 (2.0); new-api doubao adaptor.
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
 * Adapter for `seedance-2`: POST /contents/generations/tasks with a `content[]` of text and
 * image items (roles `first_frame`/`last_frame`), parameters as top-level fields.
 *
 * @example
 * const ark = createBytePlusAdapter({ baseUrl: 'https://ark.ap-southeast.bytepluses.com/api/v3', apiKey: '…' });
 */
export function createBytePlusAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'byteplus';
  const api = providerApi(provider, config, bearerAuth(config));
  const taskPath = (id: string) => `/contents/generations/tasks/${encodeURIComponent(id)}`;
  return {
    provider,
    async submit(req) {
      const content: unknown[] = [{ type: 'text', text: req.prompt }];
      if (req.image) {
        content.push({
          type: 'image_url',
          image_url: { url: imageAsUrlOrDataUri(req.image) },
          role: 'first_frame',
        });
      }
      if (req.lastFrame) {
        content.push({
          type: 'image_url',
          image_url: { url: imageAsUrlOrDataUri(req.lastFrame) },
          role: 'last_frame',
        });
      }
      const body: Record<string, unknown> = {
        model: config.upstreamModel ?? 'dreamina-seedance-2-0-260128',
        content,
        resolution: req.resolution,
        duration: req.duration,
        ratio: req.aspectRatio ?? (req.image ? 'adaptive' : '16:9'),
      };
      if (req.seed !== undefined) body.seed = req.seed;
      if (req.generateAudio !== undefined) body.generate_audio = req.generateAudio;
      const res = await api.post('/contents/generations/tasks', body);
      return { upstreamId: requireString(provider, asRecord(res.body).id, 'id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(taskPath(upstreamId));
      const task = asRecord(res.body);
      switch (task.status) {
        case 'queued':
          return { state: 'pending' };
        case 'succeeded': {
          const url = requireString(
            provider,
            asRecord(task.content).video_url,
            'content.video_url',
          );
          return completed(
            url,
            typeof task.duration === 'number' && task.duration > 0 ? task.duration : undefined,
          );
        }
        case 'failed':
        case 'expired':
        case 'cancelled': {
          const error = asRecord(task.error);
          return failed(
            String(error.code ?? task.status),
            `byteplus: ${String(error.message ?? `task ${task.status}`)}`,
          );
        }
        default:
          return { state: 'in_progress' };
      }
    },
    async cancel(upstreamId) {
      // Only queued tasks can be cancelled; a running one is refused (the caller ignores that).
      await api.delete(taskPath(upstreamId));
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

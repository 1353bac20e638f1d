// wire: docs/providers.md#9-vidu — Vidu (Authorization: Token <key>).
// Source: platform.vidu.com/docs/text-to-video, /docs/get-generation, /docs/cancel-generation; new-api vidu adaptor.
import { asRecord, fetchResult, imageAsUrlOrDataUri, providerApi, requireString } from './http.js';
import {
  completed,
  failed,
  type PollResult,
  type VideoAdapter,
  type VideoProviderConfig,
} from './types.js';

/**
 * Adapter for `vidu-q2`: text2video with `viduq2`; with an image, img2video (or start-end2video
 * with a last frame) with `viduq2-pro`, since plain `viduq2` is not an img2video model.
 *
 * @example
 * const vidu = createViduAdapter({ baseUrl: 'https://api.vidu.com', apiKey: '…' });
 */
export function createViduAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'vidu';
  const api = providerApi(provider, config, { authorization: `Token ${config.apiKey ?? ''}` });
  const taskPath = (id: string) => `/ent/v2/tasks/${encodeURIComponent(id)}`;
  return {
    provider,
    async submit(req) {
      const body: Record<string, unknown> = {
        prompt: req.prompt,
        duration: req.duration,
        resolution: req.resolution,
      };
      let path: string;
      if (req.image) {
        body.model = config.upstreamModel ? `${config.upstreamModel}-pro` : 'viduq2-pro';
        body.images = [imageAsUrlOrDataUri(req.image)];
        path = '/ent/v2/img2video';
        if (req.lastFrame) {
          (body.images as string[]).push(imageAsUrlOrDataUri(req.lastFrame));
          path = '/ent/v2/start-end2video';
        }
      } else {
        body.model = config.upstreamModel ?? 'viduq2';
        if (req.aspectRatio) body.aspect_ratio = req.aspectRatio;
        body.movement_amplitude = 'auto';
        path = '/ent/v2/text2video';
      }
      if (req.seed !== undefined) body.seed = req.seed;
      if (req.generateAudio !== undefined) body.audio = req.generateAudio;
      const res = await api.post(path, body);
      return { upstreamId: requireString(provider, asRecord(res.body).task_id, 'task_id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(`${taskPath(upstreamId)}/creations`);
      const task = asRecord(res.body);
      switch (task.state) {
        case 'created':
        case 'queueing':
          return { state: 'pending' };
        case 'success': {
          const creations = Array.isArray(task.creations) ? task.creations : [];
          const url = requireString(provider, asRecord(creations[0]).url, 'creations[0].url');
          return completed(url);
        }
        case 'failed':
          return failed(
            String(task.err_code || 'upstream_failed'),
            `vidu: generation failed (${String(task.err_code || 'no reason given')})`,
          );
        default:
          return { state: 'in_progress' };
      }
    },
    async cancel(upstreamId) {
      await api.post(`${taskPath(upstreamId)}/cancel`, { id: upstreamId });
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

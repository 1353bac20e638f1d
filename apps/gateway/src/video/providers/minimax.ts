// wire: docs/providers.md#7-minimax-hailuo — MiniMax Hailuo video generation (query, then file retrieve).
// Source: https://platform.minimax.io/docs/api-reference/video-generation-query,
// https://platform.minimax.io/docs/api-reference/video-generation-download,
// https://platform.minimax.io/docs/api-reference/errorcode.
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

/**
 * Adapter for `hailuo-2-3`. Business errors arrive in `base_resp` with HTTP 200; on `Success`
 * the result is a `file_id`, resolved through GET /v1/files/retrieve to a `download_url`.
 *
 * @example
 * const minimax = createMiniMaxAdapter({ baseUrl: 'https://api.minimax.io', apiKey: '…' });
 */
export function createMiniMaxAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'minimax';
  const api = providerApi(provider, config, bearerAuth(config));

  /** Throws on a non-zero `base_resp.status_code`; 1002 (rate limit) is retryable. */
  function checkBase(body: unknown): Record<string, unknown> {
    const b = asRecord(body);
    const base = asRecord(b.base_resp);
    const code = Number(base.status_code ?? 0);
    if (code !== 0) {
      throw new ProviderError(
        provider,
        200,
        String(code),
        `minimax: ${String(base.status_msg ?? 'error')} (status_code ${code})`,
        code === 1002,
      );
    }
    return b;
  }

  return {
    provider,
    async submit(req) {
      const body: Record<string, unknown> = {
        model: config.upstreamModel ?? 'MiniMax-Hailuo-2.3',
        prompt: req.prompt,
        duration: req.duration,
        resolution: req.resolution.toUpperCase(), // 768p → 768P
      };
      if (req.image) body.first_frame_image = imageAsUrlOrDataUri(req.image);
      const res = await api.post('/v1/video_generation', body);
      return { upstreamId: requireString(provider, checkBase(res.body).task_id, 'task_id') };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(
        `/v1/query/video_generation?task_id=${encodeURIComponent(upstreamId)}`,
      );
      const task = checkBase(res.body);
      switch (task.status) {
        case 'Preparing':
        case 'Queueing':
          return { state: 'pending' };
        case 'Success': {
          const fileId = requireString(provider, task.file_id, 'file_id');
          const file = await api.get(`/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`);
          const url = asRecord(asRecord(checkBase(file.body).file)).download_url;
          return completed(requireString(provider, url, 'file.download_url'));
        }
        case 'Fail':
          return failed('upstream_failed', `minimax: generation failed (task ${upstreamId})`);
        default:
          return { state: 'in_progress' };
      }
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

// wire: docs/providers.md#8-alibaba-cloud-dashscope-wan — Alibaba DashScope Wan (async task header).
// Source: alibabacloud.com/help/en/model-studio/text-to-video-api-reference, …/manage-asynchronous-tasks; new-api ali adaptor.
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

/** Text-to-video `size` ("W*H") by resolution tier and aspect ratio. */
const SIZES: Record<string, Record<string, string>> = {
  '720p': {
    '16:9': '1280*720',
    '9:16': '720*1280',
    '1:1': '960*960',
    '4:3': '1088*832',
    '3:4': '832*1088',
  },
  '1080p': {
    '16:9': '1920*1080',
    '9:16': '1080*1920',
    '1:1': '1440*1440',
    '4:3': '1632*1248',
    '3:4': '1248*1632',
  },
};

/**
 * Adapter for `wan-2-6`: submit carries `X-DashScope-Async: enable`; text-to-video sends `size`,
 * image-to-video (`wan2.6-i2v`) sends `resolution` and `img_url`.
 *
 * @example
 * const wan = createDashScopeAdapter({ baseUrl: 'https://dashscope-intl.aliyuncs.com/api/v1', apiKey: 'sk-…' });
 */
export function createDashScopeAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'dashscope';
  const api = providerApi(provider, config, bearerAuth(config));
  const taskPath = (id: string) => `/tasks/${encodeURIComponent(id)}`;
  return {
    provider,
    async submit(req) {
      const input: Record<string, unknown> = { prompt: req.prompt };
      if (req.negativePrompt) input.negative_prompt = req.negativePrompt;
      const parameters: Record<string, unknown> = { duration: req.duration, prompt_extend: true };
      let model: string;
      if (req.image) {
        model = config.upstreamModel ? `${config.upstreamModel}-i2v` : 'wan2.6-i2v';
        input.img_url = imageAsUrlOrDataUri(req.image);
        parameters.resolution = req.resolution.toUpperCase(); // 720p → 720P
      } else {
        model = config.upstreamModel ? `${config.upstreamModel}-t2v` : 'wan2.6-t2v';
        parameters.size = SIZES[req.resolution]?.[req.aspectRatio ?? '16:9'] ?? '1280*720';
      }
      if (req.seed !== undefined) parameters.seed = req.seed;
      if (req.generateAudio !== undefined) parameters.audio = req.generateAudio;
      const res = await api.post(
        '/services/aigc/video-generation/video-synthesis',
        { model, input, parameters },
        { 'X-DashScope-Async': 'enable' },
      );
      return {
        upstreamId: requireString(
          provider,
          asRecord(asRecord(res.body).output).task_id,
          'output.task_id',
        ),
      };
    },
    async poll(upstreamId): Promise<PollResult> {
      const res = await api.get(taskPath(upstreamId));
      const body = asRecord(res.body);
      const output = asRecord(body.output);
      switch (output.task_status) {
        case 'PENDING':
          return { state: 'pending' };
        case 'SUCCEEDED': {
          const usage = asRecord(body.usage);
          const seconds = Number(usage.video_duration ?? usage.duration);
          return completed(
            requireString(provider, output.video_url, 'output.video_url'),
            Number.isFinite(seconds) && seconds > 0 ? seconds : undefined,
          );
        }
        case 'FAILED':
        case 'CANCELED':
        case 'UNKNOWN':
          return failed(
            String(output.code ?? output.task_status),
            `dashscope: ${String(output.message ?? `task ${String(output.task_status).toLowerCase()}`)}`,
          );
        default:
          return { state: 'in_progress' };
      }
    },
    async cancel(upstreamId) {
      // Only PENDING tasks can be cancelled; the path is unconfirmed upstream
      // (docs/providers.md#8-alibaba-cloud-dashscope-wan).
      await api.post(`${taskPath(upstreamId)}/cancel`);
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

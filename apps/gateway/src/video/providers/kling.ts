// wire: docs/providers.md#5-kling — Kling official API (HS256 JWT from access key + secret key).
// Source: official Kling docs apiReference/commonInfo (JWT, errors), apiReference/model/imageToVideo; new-api kling adaptor.
import { createHmac } from 'node:crypto';
import { asRecord, fetchResult, providerApi, requireString } from './http.js';
import {
  completed,
  failed,
  type PollResult,
  ProviderError,
  type VideoAdapter,
  type VideoProviderConfig,
  type VideoSubmitRequest,
} from './types.js';

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * A Kling API token: HS256 JWT with `iss` = access key, `exp` = now + 1800 s, `nbf` = now − 5 s,
 * signed with the secret key.
 *
 * @example
 * signKlingJwt('ak', 'sk', 1_700_000_000); // "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.…"
 */
export function signKlingJwt(accessKey: string, secretKey: string, nowSeconds: number): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({ iss: accessKey, exp: nowSeconds + 1800, nbf: nowSeconds - 5 }),
  );
  const signature = createHmac('sha256', secretKey)
    .update(`${header}.${claims}`)
    .digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/** Maps our resolution to Kling's mode: `std` renders 720p, `pro` 1080p. */
const MODE_BY_RESOLUTION: Record<string, string> = { '720p': 'std', '1080p': 'pro' };

/** Kling's "no such task": HTTP 404, or its 1202/1203 codes in a 200 body. */
function isNotFound(error: ProviderError): boolean {
  return error.status === 404 || error.code === '1202' || error.code === '1203';
}

/** Kling serves text-only and image-led generations under different paths. */
function kindOf(req: VideoSubmitRequest): 'text2video' | 'image2video' {
  return req.image || req.lastFrame ? 'image2video' : 'text2video';
}

/**
 * Adapter for `kling-v3`. The poll path must match the submit path, so the upstream id is
 * `text2video/<task_id>` or `image2video/<task_id>`. Every submit carries our task id as
 * `external_task_id` (unique per Kling account), and the single-task query accepts that id in place
 * of Kling's own: an interrupted submit is found again instead of being sent twice.
 *
 * @example
 * const kling = createKlingAdapter({ baseUrl: 'https://api-singapore.klingai.com', accessKey: 'ak', secretKey: 'sk' });
 */
export function createKlingAdapter(config: VideoProviderConfig): VideoAdapter {
  const provider = 'kling';
  let token: { value: string; exp: number } | null = null;

  function auth(): Record<string, string> {
    const now = Math.floor(Date.now() / 1000);
    // Regenerate well before `exp` (1800 s).
    if (!token || token.exp - now < 300) {
      token = {
        value: signKlingJwt(config.accessKey ?? '', config.secretKey ?? '', now),
        exp: now + 1800,
      };
    }
    return { authorization: `Bearer ${token.value}` };
  }

  const api = providerApi(provider, config, auth);

  /** Kling wants raw base64 (no `data:` prefix) or a URL. */
  function image(input: { kind: string; url?: string; base64?: string }): string {
    return input.kind === 'url' ? input.url! : input.base64!;
  }

  function unwrap(body: unknown): Record<string, unknown> {
    const b = asRecord(body);
    if (b.code !== 0 && b.code !== undefined) {
      const code = Number(b.code);
      throw new ProviderError(
        provider,
        200,
        String(b.code),
        `kling: ${String(b.message ?? 'error')} (code ${code})`,
        code === 1302 || code === 1303,
      );
    }
    return asRecord(b.data);
  }

  return {
    provider,
    async submit(req, options) {
      const kind = kindOf(req);
      const body: Record<string, unknown> = {
        model_name: config.upstreamModel ?? 'kling-v3',
        prompt: req.prompt,
        mode: MODE_BY_RESOLUTION[req.resolution] ?? 'std',
        duration: String(req.duration),
      };
      if (options?.reference) body.external_task_id = options.reference;
      if (req.negativePrompt) body.negative_prompt = req.negativePrompt;
      if (req.generateAudio !== undefined) body.sound = req.generateAudio ? 'on' : 'off';
      if (kind === 'text2video') {
        if (req.aspectRatio) body.aspect_ratio = req.aspectRatio;
      } else {
        if (req.image) body.image = image(req.image);
        if (req.lastFrame) body.image_tail = image(req.lastFrame);
      }
      const res = await api.post(`/v1/videos/${kind}`, body);
      const data = unwrap(res.body);
      return { upstreamId: `${kind}/${requireString(provider, data.task_id, 'data.task_id')}` };
    },
    async findSubmitted(reference, req) {
      const kind = kindOf(req);
      let data: Record<string, unknown>;
      try {
        data = unwrap((await api.get(`/v1/videos/${kind}/${encodeURIComponent(reference)}`)).body);
      } catch (error) {
        if (error instanceof ProviderError && isNotFound(error)) return null;
        throw error;
      }
      return { upstreamId: `${kind}/${requireString(provider, data.task_id, 'data.task_id')}` };
    },
    async poll(upstreamId): Promise<PollResult> {
      const [kind, id] = upstreamId.split('/', 2);
      const res = await api.get(`/v1/videos/${kind}/${encodeURIComponent(id ?? '')}`);
      const data = unwrap(res.body);
      switch (data.task_status) {
        case 'submitted':
          return { state: 'pending' };
        case 'succeed': {
          const videos = asRecord(data.task_result).videos;
          const first = asRecord(Array.isArray(videos) ? videos[0] : undefined);
          const url = requireString(provider, first.url, 'task_result.videos[0].url');
          const duration = Number.parseFloat(String(first.duration ?? ''));
          return completed(url, Number.isFinite(duration) ? duration : undefined);
        }
        case 'failed':
          return failed(
            'upstream_failed',
            `kling: ${String(data.task_status_msg || 'task failed')}`,
          );
        default:
          return { state: 'in_progress' };
      }
    },
    async download({ resultUrl }) {
      return fetchResult(provider, resultUrl);
    },
  };
}

import { VIDEO_MODEL_IDS, VIDEO_MODELS, type VideoModelSpec } from '../providers/video/registry.js';

/** A refused field: the route renders it as a 400 `invalid_request_error` naming `param`. */
export class VideoRequestError extends Error {
  constructor(
    readonly param: string,
    message: string,
    readonly code: string = 'unsupported_value',
  ) {
    super(message);
    this.name = 'VideoRequestError';
  }
}

/** Where an image comes from: one of our uploaded files, or an external HTTPS URL passed through. */
export type ImageSource = { kind: 'file'; fileId: string } | { kind: 'external'; url: string };

/** A submit request checked against the model's table, defaults applied. */
export interface NormalizedVideoRequest {
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  aspectRatio: string;
  image?: ImageSource;
  lastFrame?: ImageSource;
  seed?: number;
  negativePrompt?: string;
  generateAudio?: boolean;
  callbackUrl?: string;
  metadata?: Record<string, string>;
}

const FIELDS = new Set([
  'model',
  'prompt',
  'callback_url',
  'image_url',
  'last_frame_url',
  'duration',
  'aspect_ratio',
  'resolution',
  'seed',
  'negative_prompt',
  'generate_audio',
  'metadata',
]);

const FILE_PATH = /^\/files\/(file-[A-Za-z0-9]+)\.(png|jpg|webp|gif)$/;

/**
 * Decides whether an image URL is one of our files (read from storage, never fetched) or an
 * external HTTPS URL; anything else is refused.
 *
 * @example
 * classifyImageUrl('http://localhost:8081/files/file-abc.png', 'http://localhost:8081', 'image_url');
 * // { kind: 'file', fileId: 'file-abc' }
 */
export function classifyImageUrl(value: unknown, cdnUrl: string, param: string): ImageSource {
  if (typeof value !== 'string' || value.length === 0) {
    throw new VideoRequestError(param, `${param} must be a URL string`, 'invalid_type');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new VideoRequestError(param, `${param} is not a valid URL`);
  }
  const cdn = new URL(cdnUrl);
  const cdnPath = cdn.pathname.replace(/\/+$/, '');
  if (url.origin === cdn.origin && url.pathname.startsWith(`${cdnPath}/files/`)) {
    const match = FILE_PATH.exec(url.pathname.slice(cdnPath.length));
    if (!match) throw new VideoRequestError(param, `${param} is not a file URL of this service`);
    return { kind: 'file', fileId: match[1]! };
  }
  if (url.protocol !== 'https:') {
    throw new VideoRequestError(
      param,
      `${param} must be an https URL or a file URL from POST /v1/files (${cdnUrl}/files/…)`,
    );
  }
  return { kind: 'external', url: url.toString() };
}

function list(values: readonly (string | number)[]): string {
  return values.join(', ');
}

function optionalString(
  body: Record<string, unknown>,
  field: string,
  max: number,
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new VideoRequestError(field, `${field} must be a string`, 'invalid_type');
  if (value.length > max) {
    throw new VideoRequestError(
      field,
      `${field} must be at most ${max} characters`,
      'out_of_range',
    );
  }
  return value;
}

/**
 * Checks a submit body against the model's own table and applies its defaults. Every refusal
 * names the field and lists what is allowed.
 *
 * @example
 * normalizeVideoRequest({ model: 'kling-v3', prompt: 'a cat', duration: 20 }, cdnUrl);
 * // throws VideoRequestError { param: 'duration', message: 'kling-v3 supports duration 3, 4, …, 15' }
 */
export function normalizeVideoRequest(input: unknown, cdnUrl: string): NormalizedVideoRequest {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new VideoRequestError('body', 'the body must be a JSON object', 'invalid_type');
  }
  const body = input as Record<string, unknown>;
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field)) {
      throw new VideoRequestError(field, `unknown field ${field}`, 'unknown_field');
    }
  }
  if (typeof body.model !== 'string' || body.model.length === 0) {
    throw new VideoRequestError('model', 'model is required', 'missing_field');
  }
  const spec: VideoModelSpec | undefined = VIDEO_MODELS[body.model];
  if (!spec) {
    throw new VideoRequestError(
      'model',
      `unknown video model ${body.model}; available: ${list(VIDEO_MODEL_IDS)}`,
      'model_not_found',
    );
  }
  const maxPrompt = spec.maxPromptLength;
  const prompt = optionalString(body, 'prompt', maxPrompt);
  if (prompt === undefined || prompt.trim().length === 0) {
    throw new VideoRequestError('prompt', 'prompt is required', 'missing_field');
  }

  let duration = spec.defaultDuration;
  if (body.duration !== undefined && body.duration !== null) {
    if (typeof body.duration !== 'number' || !Number.isInteger(body.duration)) {
      throw new VideoRequestError(
        'duration',
        'duration must be an integer number of seconds',
        'invalid_type',
      );
    }
    if (!spec.durations.includes(body.duration)) {
      throw new VideoRequestError(
        'duration',
        `${spec.id} supports duration ${list(spec.durations)}`,
      );
    }
    duration = body.duration;
  }
  const resolution = optionalString(body, 'resolution', 16) ?? spec.defaultResolution;
  if (!spec.resolutions.includes(resolution)) {
    throw new VideoRequestError(
      'resolution',
      `${spec.id} supports resolution ${list(spec.resolutions)}`,
    );
  }
  const aspectRatio = optionalString(body, 'aspect_ratio', 16) ?? spec.defaultAspectRatio;
  if (!spec.aspectRatios.includes(aspectRatio)) {
    throw new VideoRequestError(
      'aspect_ratio',
      `${spec.id} supports aspect_ratio ${list(spec.aspectRatios)}`,
    );
  }

  const normalized: NormalizedVideoRequest = {
    model: spec.id,
    prompt,
    duration,
    resolution,
    aspectRatio,
  };

  if (body.image_url !== undefined && body.image_url !== null) {
    if (spec.imageInput === 'none') {
      throw new VideoRequestError('image_url', `${spec.id} does not take image_url`);
    }
    normalized.image = classifyImageUrl(body.image_url, cdnUrl, 'image_url');
  } else if (spec.imageInput === 'required') {
    throw new VideoRequestError(
      'image_url',
      `${spec.id} requires image_url (first frame)`,
      'missing_field',
    );
  }
  if (body.last_frame_url !== undefined && body.last_frame_url !== null) {
    if (!spec.lastFrame) {
      throw new VideoRequestError('last_frame_url', `${spec.id} does not take last_frame_url`);
    }
    normalized.lastFrame = classifyImageUrl(body.last_frame_url, cdnUrl, 'last_frame_url');
    if (!normalized.image) {
      throw new VideoRequestError(
        'last_frame_url',
        'last_frame_url needs image_url (the first frame)',
        'missing_field',
      );
    }
  }
  for (const [param, source] of [
    ['image_url', normalized.image],
    ['last_frame_url', normalized.lastFrame],
  ] as const) {
    if (source?.kind === 'external' && spec.imageTransport === 'inline_only') {
      throw new VideoRequestError(
        param,
        `${spec.id} takes images inline only: upload the image with POST /v1/files and pass its url`,
      );
    }
  }

  if (body.seed !== undefined && body.seed !== null) {
    if (!spec.seed) throw new VideoRequestError('seed', `${spec.id} does not take seed`);
    if (
      typeof body.seed !== 'number' ||
      !Number.isInteger(body.seed) ||
      body.seed < 0 ||
      body.seed > 2_147_483_647
    ) {
      throw new VideoRequestError(
        'seed',
        'seed must be an integer from 0 to 2147483647',
        'out_of_range',
      );
    }
    normalized.seed = body.seed;
  }
  const negativePrompt = optionalString(body, 'negative_prompt', 2500);
  if (negativePrompt !== undefined) {
    if (!spec.negativePrompt) {
      throw new VideoRequestError('negative_prompt', `${spec.id} does not take negative_prompt`);
    }
    normalized.negativePrompt = negativePrompt;
  }
  if (body.generate_audio !== undefined && body.generate_audio !== null) {
    if (typeof body.generate_audio !== 'boolean') {
      throw new VideoRequestError(
        'generate_audio',
        'generate_audio must be a boolean',
        'invalid_type',
      );
    }
    if (!spec.generateAudio) {
      throw new VideoRequestError('generate_audio', `${spec.id} does not take generate_audio`);
    }
    normalized.generateAudio = body.generate_audio;
  }
  const callbackUrl = optionalString(body, 'callback_url', 2048);
  if (callbackUrl !== undefined) normalized.callbackUrl = callbackUrl;
  if (body.metadata !== undefined && body.metadata !== null) {
    if (typeof body.metadata !== 'object' || Array.isArray(body.metadata)) {
      throw new VideoRequestError(
        'metadata',
        'metadata must be an object of strings',
        'invalid_type',
      );
    }
    const entries = Object.entries(body.metadata as Record<string, unknown>);
    if (entries.length > 16) {
      throw new VideoRequestError('metadata', 'metadata takes at most 16 keys', 'out_of_range');
    }
    for (const [k, v] of entries) {
      if (k.length > 64) {
        throw new VideoRequestError(
          `metadata.${k}`,
          'metadata keys are at most 64 characters',
          'out_of_range',
        );
      }
      if (typeof v !== 'string') {
        throw new VideoRequestError(
          `metadata.${k}`,
          'metadata values must be strings',
          'invalid_type',
        );
      }
      if (v.length > 512) {
        throw new VideoRequestError(
          `metadata.${k}`,
          'metadata values are at most 512 characters',
          'out_of_range',
        );
      }
    }
    normalized.metadata = body.metadata as Record<string, string>;
  }

  const problem = spec.check?.({
    duration,
    resolution,
    aspectRatio,
    hasImage: normalized.image !== undefined,
    hasLastFrame: normalized.lastFrame !== undefined,
  });
  if (problem) throw new VideoRequestError(problem.param, problem.message);
  return normalized;
}

/** Reserved quota units for a request: duration × the model's price at that resolution. */
export function priceUnits(model: string, resolution: string, seconds: number): number {
  const spec = VIDEO_MODELS[model];
  const perSecond = spec?.unitsPerSecond[resolution] ?? 0;
  return Math.ceil(perSecond * seconds);
}

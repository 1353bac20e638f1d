/**
 * A submit body checked against the model's own table, defaults applied: the fields are read by
 * fields.ts and the images (where each comes from, and whether the model takes it so) here, in the
 * order their refusals are reported; the cross-field rules of the model's table run last.
 */
import { CDN_FILE_NAME } from '../../files/index.js';
import { VIDEO_MODELS, type VideoModelSpec } from '../models.js';
import type { ImageSource, StoredVideoParams } from '../tables.js';
import {
  optionalString,
  readChoice,
  readDuration,
  readGenerateAudio,
  readMetadata,
  readModel,
  readNegativePrompt,
  readPrompt,
  readSeed,
  VideoRequestError,
} from './fields.js';

export { VideoRequestError } from './fields.js';

/** A submit request checked against the model's table, defaults applied. */
export interface NormalizedVideoRequest extends StoredVideoParams {
  model: string;
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

/** The body as an object with none but the known fields. */
function knownFields(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new VideoRequestError('body', 'the body must be a JSON object', 'invalid_type');
  }
  const body = input as Record<string, unknown>;
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field)) {
      throw new VideoRequestError(field, `unknown field ${field}`, 'unknown_field');
    }
  }
  return body;
}

/** A request's images; a key is present only when its field was given. */
interface VideoImages {
  image?: ImageSource;
  lastFrame?: ImageSource;
}

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
    const match = CDN_FILE_NAME.exec(url.pathname.slice(`${cdnPath}/files/`.length));
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

function readFirstFrame(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
): ImageSource | undefined {
  if (body.image_url !== undefined && body.image_url !== null) {
    if (spec.imageInput === 'none') {
      throw new VideoRequestError('image_url', `${spec.id} does not take image_url`);
    }
    return classifyImageUrl(body.image_url, cdnUrl, 'image_url');
  }
  if (spec.imageInput === 'required') {
    throw new VideoRequestError(
      'image_url',
      `${spec.id} requires image_url (first frame)`,
      'missing_field',
    );
  }
  return undefined;
}

function readLastFrame(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
  hasImage: boolean,
): ImageSource | undefined {
  if (body.last_frame_url === undefined || body.last_frame_url === null) return undefined;
  if (!spec.lastFrame) {
    throw new VideoRequestError('last_frame_url', `${spec.id} does not take last_frame_url`);
  }
  const lastFrame = classifyImageUrl(body.last_frame_url, cdnUrl, 'last_frame_url');
  if (!hasImage) {
    throw new VideoRequestError(
      'last_frame_url',
      'last_frame_url needs image_url (the first frame)',
      'missing_field',
    );
  }
  return lastFrame;
}

/**
 * The request's images, checked against what the model takes: whether it takes (or requires) a
 * first frame, a last frame, and external URLs at all.
 *
 * @example
 * readImages({ image_url: `${cdnUrl}/files/file-abc.png` }, VIDEO_MODELS['kling-v3'], cdnUrl);
 * // { image: { kind: 'file', fileId: 'file-abc' } }
 */
function readImages(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
): VideoImages {
  const images: VideoImages = {};
  const image = readFirstFrame(body, spec, cdnUrl);
  if (image) images.image = image;
  const lastFrame = readLastFrame(body, spec, cdnUrl, image !== undefined);
  if (lastFrame) images.lastFrame = lastFrame;
  for (const [param, source] of [
    ['image_url', images.image],
    ['last_frame_url', images.lastFrame],
  ] as const) {
    if (source?.kind === 'external' && spec.imageTransport === 'inline_only') {
      throw new VideoRequestError(
        param,
        `${spec.id} takes images inline only: upload the image with POST /v1/files and pass its url`,
      );
    }
  }
  return images;
}

/** Adds the optional fields that were given, in the order they are checked. */
function addOptions(
  normalized: NormalizedVideoRequest,
  body: Record<string, unknown>,
  spec: VideoModelSpec,
): void {
  const seed = readSeed(body, spec);
  if (seed !== undefined) normalized.seed = seed;
  const negativePrompt = readNegativePrompt(body, spec);
  if (negativePrompt !== undefined) normalized.negativePrompt = negativePrompt;
  const generateAudio = readGenerateAudio(body, spec);
  if (generateAudio !== undefined) normalized.generateAudio = generateAudio;
  const callbackUrl = optionalString(body, 'callback_url', 2048);
  if (callbackUrl !== undefined) normalized.callbackUrl = callbackUrl;
  const metadata = readMetadata(body);
  if (metadata !== undefined) normalized.metadata = metadata;
}

/** The model's own cross-field rules, on the values after defaults. */
function checkModelRules(normalized: NormalizedVideoRequest, spec: VideoModelSpec): void {
  const problem = spec.check?.({
    duration: normalized.duration,
    resolution: normalized.resolution,
    aspectRatio: normalized.aspectRatio,
    hasImage: normalized.image !== undefined,
    hasLastFrame: normalized.lastFrame !== undefined,
  });
  if (problem) throw new VideoRequestError(problem.param, problem.message);
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
  const body = knownFields(input);
  const spec = readModel(body);
  const normalized: NormalizedVideoRequest = {
    model: spec.id,
    prompt: readPrompt(body, spec),
    duration: readDuration(body, spec),
    resolution: readChoice(body, spec, 'resolution', spec.resolutions, spec.defaultResolution),
    aspectRatio: readChoice(body, spec, 'aspect_ratio', spec.aspectRatios, spec.defaultAspectRatio),
    ...readImages(body, spec, cdnUrl),
  };
  addOptions(normalized, body, spec);
  checkModelRules(normalized, spec);
  return normalized;
}

/** Reserved quota units for a request: duration × the model's price at that resolution. */
export function priceUnits(model: string, resolution: string, seconds: number): number {
  const spec = VIDEO_MODELS[model];
  const perSecond = spec?.unitsPerSecond[resolution] ?? 0;
  return Math.ceil(perSecond * seconds);
}

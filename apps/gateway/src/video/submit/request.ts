/**
 * A submit body checked against the model's own table, defaults applied: the fields are read by
 * fields.ts and images.ts, in the order their refusals are reported; the cross-field rules of the
 * model's table run last.
 */
import { VIDEO_MODELS, type VideoModelSpec } from '../models.js';
import type { StoredVideoParams } from '../tables.js';
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
} from './fields.js';
import { readImages } from './images.js';
import { VideoRequestError } from './request-error.js';

export { classifyImageUrl } from './images.js';
export { VideoRequestError } from './request-error.js';

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

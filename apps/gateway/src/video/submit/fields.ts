/**
 * The fields of a submit request, each read from the body and checked against the model's table:
 * the model itself, the prompt, duration, resolution, aspect ratio, the options a model may not take
 * (seed, negative prompt, audio), and the metadata echoed back. Every refusal is a
 * `VideoRequestError` naming the field and what is allowed.
 */
import { VIDEO_MODEL_IDS, VIDEO_MODELS, type VideoModelSpec } from '../models.js';

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

type Body = Record<string, unknown>;

const SEED_MAX = 2_147_483_647;

/** Lists allowed values in a refusal's message. */
function list(values: readonly (string | number)[]): string {
  return values.join(', ');
}

/** A string field up to `max` characters, or undefined when absent or null. */
export function optionalString(body: Body, field: string, max: number): string | undefined {
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

/** The model's table, by the body's `model`. */
export function readModel(body: Body): VideoModelSpec {
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
  return spec;
}

/** The prompt: required, not blank, at most the model's length. */
export function readPrompt(body: Body, spec: VideoModelSpec): string {
  const prompt = optionalString(body, 'prompt', spec.maxPromptLength);
  if (prompt === undefined || prompt.trim().length === 0) {
    throw new VideoRequestError('prompt', 'prompt is required', 'missing_field');
  }
  return prompt;
}

/** The duration in whole seconds, one the model renders; its default when absent. */
export function readDuration(body: Body, spec: VideoModelSpec): number {
  if (body.duration === undefined || body.duration === null) return spec.defaultDuration;
  if (typeof body.duration !== 'number' || !Number.isInteger(body.duration)) {
    throw new VideoRequestError(
      'duration',
      'duration must be an integer number of seconds',
      'invalid_type',
    );
  }
  if (!spec.durations.includes(body.duration)) {
    throw new VideoRequestError('duration', `${spec.id} supports duration ${list(spec.durations)}`);
  }
  return body.duration;
}

/**
 * A string field that must be one of the model's values (resolution, aspect ratio); the model's
 * default when absent.
 *
 * @example
 * readChoice(body, spec, 'resolution', spec.resolutions, spec.defaultResolution); // '720p'
 */
export function readChoice(
  body: Body,
  spec: VideoModelSpec,
  field: string,
  allowed: readonly string[],
  fallback: string,
): string {
  const value = optionalString(body, field, 16) ?? fallback;
  if (!allowed.includes(value)) {
    throw new VideoRequestError(field, `${spec.id} supports ${field} ${list(allowed)}`);
  }
  return value;
}

/** The seed, when given and the model takes one. */
export function readSeed(body: Body, spec: VideoModelSpec): number | undefined {
  if (body.seed === undefined || body.seed === null) return undefined;
  if (!spec.seed) throw new VideoRequestError('seed', `${spec.id} does not take seed`);
  if (
    typeof body.seed !== 'number' ||
    !Number.isInteger(body.seed) ||
    body.seed < 0 ||
    body.seed > SEED_MAX
  ) {
    throw new VideoRequestError(
      'seed',
      `seed must be an integer from 0 to ${SEED_MAX}`,
      'out_of_range',
    );
  }
  return body.seed;
}

/** The negative prompt, when given and the model takes one. */
export function readNegativePrompt(body: Body, spec: VideoModelSpec): string | undefined {
  const negativePrompt = optionalString(body, 'negative_prompt', 2500);
  if (negativePrompt !== undefined && !spec.negativePrompt) {
    throw new VideoRequestError('negative_prompt', `${spec.id} does not take negative_prompt`);
  }
  return negativePrompt;
}

/** Whether to generate audio, when given and the model can. */
export function readGenerateAudio(body: Body, spec: VideoModelSpec): boolean | undefined {
  if (body.generate_audio === undefined || body.generate_audio === null) return undefined;
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
  return body.generate_audio;
}

const MAX_KEYS = 16;
const MAX_KEY_LENGTH = 64;
const MAX_VALUE_LENGTH = 512;

function checkEntry(key: string, value: unknown): void {
  if (key.length > MAX_KEY_LENGTH) {
    throw new VideoRequestError(
      `metadata.${key}`,
      `metadata keys are at most ${MAX_KEY_LENGTH} characters`,
      'out_of_range',
    );
  }
  if (typeof value !== 'string') {
    throw new VideoRequestError(
      `metadata.${key}`,
      'metadata values must be strings',
      'invalid_type',
    );
  }
  if (value.length > MAX_VALUE_LENGTH) {
    throw new VideoRequestError(
      `metadata.${key}`,
      `metadata values are at most ${MAX_VALUE_LENGTH} characters`,
      'out_of_range',
    );
  }
}

/**
 * A submit request's `metadata`: at most 16 keys of up to 64 characters, each with a string value
 * of up to 512 characters; undefined when absent or null.
 *
 * @example
 * readMetadata({ metadata: { order: '42' } }); // { order: '42' }
 */
export function readMetadata(body: Record<string, unknown>): Record<string, string> | undefined {
  const metadata = body.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new VideoRequestError(
      'metadata',
      'metadata must be an object of strings',
      'invalid_type',
    );
  }
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > MAX_KEYS) {
    throw new VideoRequestError(
      'metadata',
      `metadata takes at most ${MAX_KEYS} keys`,
      'out_of_range',
    );
  }
  for (const [key, value] of entries) checkEntry(key, value);
  return metadata as Record<string, string>;
}

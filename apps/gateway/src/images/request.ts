/**
 * Stage 2: the validated body checked against the model's own table (models.ts), defaults
 * applied, for each of the three operations (generate, edit, variation). The spec's schema has
 * already checked types and the bounds common to every model; a value this model does not take
 * is a 400 `unsupported_value` naming the field and listing what it takes (the same rule as
 * video: docs/design.md#images). The input images are only counted here; reading them is the
 * next stage's (inputs.ts).
 */
import type {
  CreateImageEditJsonRequest,
  CreateImageRequest,
  CreateImageVariationRequest,
  ImageQuality,
  ImageSize,
} from '@modelgate/core';
import { badRequest } from '../errors/api-error.js';
import type { ImageModelSpec } from '../models/images.js';
import type { ImageOperation } from '../providers/image/types.js';
import type { ImageModel } from './catalog.js';

/** Where one input image comes from; `param` is the request field that named it. */
export type ImageSource =
  | { kind: 'bytes'; bytes: Buffer; param: string }
  | { kind: 'url'; url: string; param: string }
  | { kind: 'file'; fileId: string; param: string };

/** An edit's fields besides its images, in either form (multipart or JSON). */
export type ImageEditFields = Omit<CreateImageEditJsonRequest, 'images' | 'mask'>;
/** A variation's fields besides its image. */
export type ImageVariationFields = Omit<CreateImageVariationRequest, 'image'>;

/** What the route read: the operation, its fields and where its input images come from. */
export type ImageAsk =
  | { operation: 'generate'; body: CreateImageRequest }
  | {
      operation: 'edit';
      body: ImageEditFields;
      images: readonly ImageSource[];
      mask?: ImageSource | undefined;
    }
  | { operation: 'variation'; body: ImageVariationFields; images: readonly [ImageSource] };

/** A request the model takes, its defaults applied. */
export interface ImageRequest {
  operation: ImageOperation;
  model: ImageModel;
  /** Empty for a variation. */
  prompt: string;
  n: number;
  /** `auto` only where the model chooses. */
  size: ImageSize;
  /** `auto` only where the model chooses (gpt-image-1); DALL·E's `auto` is `standard`. */
  quality: ImageQuality;
  responseFormat: 'url' | 'b64_json';
  /** Fields sent upstream as they came: style, the output options, input_fidelity, user. */
  passed: Record<string, string | number>;
  /** Where the input images come from (none for a generation). */
  images: readonly ImageSource[];
  mask?: ImageSource;
  /** A streamed edit, and how many partial images each image has; null: answered whole. */
  stream: { partialImages: number } | null;
}

/** The fields only models with `outputOptions` take. */
const OUTPUT_OPTIONS = ['background', 'output_format', 'output_compression', 'moderation'] as const;

/** The verbs of the operations, for messages. */
const VERB: Record<ImageOperation, string> = {
  generate: 'generate images',
  edit: 'edit images',
  variation: 'make variations',
};

function refuse(param: string, message: string): never {
  throw badRequest(message, param, 'unsupported_value');
}

/** A value the model must list; its default when absent. */
function pick<T extends string>(
  spec: ImageModelSpec,
  field: string,
  value: T | null | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined || value === null) return fallback;
  if (!allowed.includes(value))
    refuse(field, `${spec.id} supports ${field} ${allowed.join(', ')} (got ${value}).`);
  return value;
}

function checkPrompt(prompt: string, spec: ImageModelSpec): void {
  if (prompt.length > spec.maxPromptLength) {
    refuse(
      'prompt',
      `${spec.id} takes a prompt of at most ${spec.maxPromptLength} characters (got ${prompt.length}).`,
    );
  }
}

function checkN(n: number, spec: ImageModelSpec): number {
  if (n > spec.maxImages)
    refuse(
      'n',
      `${spec.id} makes at most ${spec.maxImages} image${spec.maxImages === 1 ? '' : 's'} per request (got n = ${n}).`,
    );
  return n;
}

/** The fields of any operation that may carry style, output options, input_fidelity and user. */
interface PassableFields {
  style?: string | null;
  background?: string | null;
  output_format?: string | null;
  output_compression?: number | null;
  moderation?: string | null;
  input_fidelity?: string | null;
  user?: string;
}

/** style, the output options and input_fidelity: refused by a model that does not take them. */
function passedOptions(
  body: PassableFields,
  spec: ImageModelSpec,
): Record<string, string | number> {
  const passed: Record<string, string | number> = {};
  if (body.style != null) {
    if (spec.styles.length === 0) refuse('style', `${spec.id} does not take style.`);
    passed.style = pick(spec, 'style', body.style as 'vivid' | 'natural', spec.styles, 'vivid');
  }
  for (const field of OUTPUT_OPTIONS) {
    const value = body[field];
    if (value == null) continue;
    if (!spec.outputOptions) refuse(field, `${spec.id} does not take ${field}.`);
    passed[field] = value;
  }
  if (body.input_fidelity != null) {
    if (!spec.input.fidelity) refuse('input_fidelity', `${spec.id} does not take input_fidelity.`);
    passed.input_fidelity = body.input_fidelity;
  }
  if (body.user !== undefined) passed.user = body.user;
  return passed;
}

/** The rules between output options, on the values after defaults (upstream refuses the same). */
function checkOutputRules(passed: Record<string, string | number>): void {
  const format = passed.output_format ?? 'png';
  if (passed.background === 'transparent' && format === 'jpeg') {
    refuse('background', 'A transparent background needs output_format png or webp (got jpeg).');
  }
  const compression = passed.output_compression;
  if (typeof compression === 'number' && compression < 100 && format === 'png') {
    refuse(
      'output_compression',
      'output_compression below 100 needs output_format jpeg or webp (got png).',
    );
  }
}

/** The model must do the operation; the message names the models of this gateway that do. */
function checkOperation(
  operation: ImageOperation,
  spec: ImageModelSpec,
  servedBy: readonly string[],
): void {
  if (spec.operations.includes(operation)) return;
  refuse(
    'model',
    `${spec.id} does not ${VERB[operation]}${servedBy.length > 0 ? `; ${servedBy.join(', ')} do${servedBy.length === 1 ? 'es' : ''}` : ''}.`,
  );
}

/** An edit's images, mask and streaming against the model's input rules. */
function checkEditInputs(
  ask: Extract<ImageAsk, { operation: 'edit' }>,
  spec: ImageModelSpec,
  param: string,
): ImageRequest['stream'] {
  const { input } = spec;
  if (ask.images.length > input.maxImages) {
    refuse(
      param,
      `${spec.id} edits at most ${input.maxImages} image${input.maxImages === 1 ? '' : 's'} at once (got ${ask.images.length}).`,
    );
  }
  if (ask.mask && !input.mask) refuse('mask', `${spec.id} does not take a mask.`);
  if (ask.body.stream !== true) return null;
  if (!input.stream) refuse('stream', `${spec.id} does not stream edits.`);
  if (ask.body.response_format === 'url') {
    refuse(
      'response_format',
      'A streamed edit sends its images as base64 events: leave response_format out, or set stream to false.',
    );
  }
  return { partialImages: ask.body.partial_images ?? 0 };
}

/**
 * @param servedBy the served models that do the operation, for the message when this one does not.
 * @throws ApiError 400 `unsupported_value` naming the field the model does not take as sent.
 * @example
 * normalizeImageRequest({ operation: 'generate', body: { model: 'dall-e-3', prompt: 'a cat', n: 2 } }, model, []);
 * // throws: dall-e-3 makes at most 1 image per request (got n = 2).
 */
export function normalizeImageRequest(
  ask: ImageAsk,
  model: ImageModel,
  servedBy: readonly string[] = [],
): ImageRequest {
  const { spec } = model;
  checkOperation(ask.operation, spec, servedBy);
  const body = ask.body;
  const prompt = ask.operation === 'variation' ? '' : ask.body.prompt;
  if (ask.operation !== 'variation') checkPrompt(prompt, spec);
  const n = checkN(body.n ?? 1, spec);
  const size = pick(spec, 'size', body.size, spec.sizes, spec.defaultSize);
  const asked =
    ask.operation === 'variation'
      ? spec.defaultQuality
      : pick(spec, 'quality', ask.body.quality, spec.qualities, spec.defaultQuality);
  const passed = passedOptions(body, spec);
  checkOutputRules(passed);
  const request: ImageRequest = {
    operation: ask.operation,
    model,
    prompt,
    n,
    size,
    quality: asked === 'auto' && spec.autoQuality ? spec.autoQuality : asked,
    responseFormat: body.response_format ?? spec.defaultResponseFormat,
    passed,
    images: ask.operation === 'generate' ? [] : ask.images,
    stream: null,
  };
  if (ask.operation === 'edit') {
    request.stream = checkEditInputs(ask, spec, ask.images[0]?.param.split('.')[0] ?? 'image');
    if (ask.mask) request.mask = ask.mask;
  }
  return request;
}

/**
 * Stage 2: the validated body checked against the model's own table (models.ts), defaults
 * applied. The spec's schema has already checked types and the bounds common to every model; a
 * value this model does not take is a 400 `unsupported_value` naming the field and listing what
 * it takes (the same rule as video: docs/design.md#images).
 */
import type { CreateImageRequest, ImageQuality, ImageSize } from '@modelgate/core';
import { badRequest } from '../http/errors.js';
import type { ImageModel } from './catalog.js';
import type { ImageModelSpec } from './models.js';

/** A request the model takes, its defaults applied. */
export interface ImageRequest {
  model: ImageModel;
  prompt: string;
  n: number;
  /** `auto` only where the model chooses (gpt-image-1). */
  size: ImageSize;
  /** `auto` only where the model chooses (gpt-image-1); DALL·E's `auto` is `standard`. */
  quality: ImageQuality;
  responseFormat: 'url' | 'b64_json';
  /** Fields sent upstream as they came: style, the GPT image output options, user. */
  passed: Record<string, string | number>;
}

/** The fields only models with `outputOptions` take. */
const OUTPUT_OPTIONS = ['background', 'output_format', 'output_compression', 'moderation'] as const;

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

function checkCounts(body: CreateImageRequest, spec: ImageModelSpec): number {
  if (body.prompt.length > spec.maxPromptLength) {
    refuse(
      'prompt',
      `${spec.id} takes a prompt of at most ${spec.maxPromptLength} characters (got ${body.prompt.length}).`,
    );
  }
  const n = body.n ?? 1;
  if (n > spec.maxImages)
    refuse(
      'n',
      `${spec.id} makes at most ${spec.maxImages} image${spec.maxImages === 1 ? '' : 's'} per request (got n = ${n}).`,
    );
  return n;
}

/** style and the GPT image output options: refused by a model that does not take them. */
function passedOptions(
  body: CreateImageRequest,
  spec: ImageModelSpec,
): Record<string, string | number> {
  const passed: Record<string, string | number> = {};
  if (body.style != null) {
    if (spec.styles.length === 0) refuse('style', `${spec.id} does not take style.`);
    passed.style = pick(spec, 'style', body.style, spec.styles, body.style);
  }
  for (const field of OUTPUT_OPTIONS) {
    const value = body[field];
    if (value == null) continue;
    if (!spec.outputOptions) refuse(field, `${spec.id} does not take ${field}.`);
    passed[field] = value;
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

/**
 * @throws ApiError 400 `unsupported_value` naming the field the model does not take as sent.
 * @example
 * normalizeImageRequest({ model: 'dall-e-3', prompt: 'a cat', n: 2 }, model);
 * // throws: dall-e-3 makes at most 1 image per request (got n = 2).
 */
export function normalizeImageRequest(body: CreateImageRequest, model: ImageModel): ImageRequest {
  const { spec } = model;
  const n = checkCounts(body, spec);
  const size = pick(spec, 'size', body.size, spec.sizes, spec.defaultSize);
  const asked = pick(spec, 'quality', body.quality, spec.qualities, spec.defaultQuality);
  const passed = passedOptions(body, spec);
  checkOutputRules(passed);
  return {
    model,
    prompt: body.prompt,
    n,
    size,
    quality: asked === 'auto' && spec.autoQuality ? spec.autoQuality : asked,
    responseFormat: body.response_format ?? spec.defaultResponseFormat,
    passed,
  };
}

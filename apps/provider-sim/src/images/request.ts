// `POST /v1/images/generations`, read in the real API's order: the key, the body, fields the
// model's family does not take, the model, the prompt, then each option. Every refusal is the
// real API's 400 (or 401 / 404) as far as its public reports show (docs/providers.md#12-openai-images).
import type { Ctx } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { checkAuth, numberIn } from '../text/openai-request.js';
import { FAMILIES, familyOf, GPT_IMAGE_AUTO, type ImageFamily } from './families.js';
import type { ImageFormat } from './picture.js';

/** A request once checked, `auto` values resolved. */
export interface ImageJob {
  model: string;
  family: ImageFamily;
  prompt: string;
  n: number;
  /** `1024x1024`, … (never `auto`). */
  size: string;
  /** `low` … `high`, or `standard` / `hd` (never `auto`). */
  quality: string;
  format: ImageFormat;
  transparent: boolean;
  responseFormat: 'url' | 'b64_json';
}

const COMMON_FIELDS = ['model', 'prompt', 'n', 'size', 'quality', 'user'];

/** "Invalid value: 'x'. Supported values are: 'a', 'b', and 'c'." */
function unsupported(name: string, value: unknown, allowed: readonly string[]): HttpError {
  const quoted = allowed.map((v) => `'${v}'`);
  const list =
    quoted.length > 2
      ? `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`
      : quoted.join(' and ');
  return badRequest(
    `Invalid value: '${String(value)}'. Supported values are: ${list}.`,
    name,
    'invalid_value',
  );
}

/** An optional string field, one of `allowed`; null counts as absent. */
function choice<T extends string>(
  body: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const found = allowed.find((v) => v === value);
  if (found === undefined) throw unsupported(name, value, allowed);
  return found;
}

function readModel(body: Record<string, unknown>): { model: string; family: ImageFamily } {
  const model = body.model ?? undefined;
  if (model !== undefined && typeof model !== 'string') {
    throw badRequest("Invalid type for 'model': expected a string.", 'model', 'invalid_type');
  }
  if (model?.startsWith('unknown-')) {
    throw new HttpError({
      status: 404,
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      code: 'model_not_found',
    });
  }
  const family = familyOf(model);
  if (!family) throw badRequest(`Invalid value for 'model': '${model}'.`, 'model', 'invalid_value');
  return { model: model ?? 'dall-e-2', family };
}

function checkFields(body: Record<string, unknown>, family: ImageFamily): void {
  for (const name of Object.keys(body)) {
    if (!COMMON_FIELDS.includes(name) && !family.extraFields.includes(name)) {
      throw badRequest(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');
    }
  }
}

function readPrompt(body: Record<string, unknown>, family: ImageFamily): string {
  const prompt = body.prompt;
  if (prompt === undefined || prompt === null) {
    throw badRequest(
      "Missing required parameter: 'prompt'.",
      'prompt',
      'missing_required_parameter',
    );
  }
  if (typeof prompt !== 'string') {
    throw badRequest(
      `Invalid type for 'prompt': expected a string, but got ${typeof prompt} instead.`,
      'prompt',
      'invalid_type',
    );
  }
  if (prompt.length > family.maxPromptLength) {
    throw badRequest(
      `Invalid 'prompt': string too long. Expected a string with maximum length ${family.maxPromptLength}, but got a string with length ${prompt.length} instead.`,
      'prompt',
      'string_above_max_length',
    );
  }
  return prompt;
}

function readN(body: Record<string, unknown>, family: ImageFamily): number {
  const n = numberIn(body, 'n', 1, 10, true) ?? 1;
  if (n > family.maxN)
    throw badRequest('You must provide n=1 for this model.', 'n', 'invalid_value');
  return n;
}

function readSize(body: Record<string, unknown>, family: ImageFamily): string {
  const size = body.size ?? undefined;
  if (size !== undefined && (typeof size !== 'string' || !family.sizes.includes(size))) {
    if (family.name !== 'gpt-image') {
      // The DALL·E models answer a size they do not draw without naming the field.
      throw new HttpError({
        status: 400,
        message: 'The size is not supported by this model.',
        code: 'invalid_size',
        param: null,
      });
    }
    throw unsupported('size', size, family.sizes);
  }
  const chosen = size ?? family.sizes[0]!;
  return chosen === 'auto' ? GPT_IMAGE_AUTO.size : chosen;
}

function readQuality(body: Record<string, unknown>, family: ImageFamily): string {
  const quality = choice(body, 'quality', family.qualities) ?? family.qualities[0]!;
  if (quality !== 'auto') return quality;
  return family.name === 'gpt-image' ? GPT_IMAGE_AUTO.quality : 'standard';
}

/** The GPT image models' output options: format, background, compression, moderation. */
function readOutput(body: Record<string, unknown>): { format: ImageFormat; transparent: boolean } {
  const format = choice<ImageFormat>(body, 'output_format', ['png', 'jpeg', 'webp']) ?? 'png';
  const background = choice(body, 'background', ['transparent', 'opaque', 'auto']);
  const compression = numberIn(body, 'output_compression', 0, 100, true);
  choice(body, 'moderation', ['low', 'auto']);
  if (background === 'transparent' && format === 'jpeg') {
    throw badRequest(
      'Transparent background is not supported for the jpeg output format.',
      'background',
      'invalid_value',
    );
  }
  if (compression !== undefined && compression < 100 && format === 'png') {
    throw badRequest(
      'Compression less than 100 is not supported for the png output format.',
      'output_compression',
      'invalid_value',
    );
  }
  if (body.stream === true) {
    throw badRequest('The simulator does not stream images.', 'stream', 'invalid_value');
  }
  return { format, transparent: background === 'transparent' };
}

/**
 * @example
 * const job = readImageRequest(ctx); // { model: 'dall-e-3', n: 1, size: '1024x1024', … }
 */
export function readImageRequest(ctx: Ctx): ImageJob {
  checkAuth(ctx);
  if (!isRecord(ctx.body)) {
    throw badRequest(
      'We could not parse the JSON body of your request. The body must be a JSON object.',
    );
  }
  const body = ctx.body;
  const { model, family } = readModel(body);
  checkFields(body, family);
  const prompt = readPrompt(body, family);
  const n = readN(body, family);
  const size = readSize(body, family);
  const quality = readQuality(body, family);
  if (family === FAMILIES['dall-e-3']) choice(body, 'style', ['vivid', 'natural']);
  const responseFormat = choice(body, 'response_format', ['url', 'b64_json'] as const);
  const output =
    family.name === 'gpt-image' ? readOutput(body) : { format: 'png' as const, transparent: false };
  return {
    model,
    family,
    prompt,
    n,
    size,
    quality,
    ...output,
    // The GPT image models always answer with base64; the DALL·E models default to URLs.
    responseFormat: family.name === 'gpt-image' ? 'b64_json' : (responseFormat ?? 'url'),
  };
}

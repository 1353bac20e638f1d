// wire: docs/providers.md#16-openai-embeddings — `POST /embeddings` as OpenAI serves it: `input`
// as a string, strings, token ids or lists of them (2,048 inputs at most, 8,192 tokens each),
// `dimensions` for the text-embedding-3 models (the full vector cut and scaled to unit length
// again, as theirs are), `encoding_format` float or base64, and `usage.prompt_tokens`.
import type { Ctx } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, sendJson } from '../respond.js';
import { checkAuth } from '../text/openai-request.js';
import { countTokens } from '../text/tokens.js';
import { embed, toBase64, unit } from './vectors.js';

/** The embedding models and their full length. */
const DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
const FIELDS = ['input', 'model', 'encoding_format', 'dimensions', 'user'];
const MAX_INPUTS = 2048;
const MAX_TOKENS = 8192;

function invalidInput(): HttpError {
  return badRequest(
    "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    'input',
    'invalid_value',
  );
}

function inputsOf(input: unknown): (string | number[])[] {
  const isIds = (value: unknown): value is number[] =>
    Array.isArray(value) && value.length > 0 && value.every((v) => Number.isInteger(v) && v >= 0);
  if (typeof input === 'string') {
    if (input === '') throw invalidInput();
    return [input];
  }
  if (!Array.isArray(input) || input.length === 0) throw invalidInput();
  if (isIds(input)) return [input];
  if (input.length > MAX_INPUTS) throw invalidInput();
  for (const item of input)
    if (!(typeof item === 'string' && item !== '') && !isIds(item)) throw invalidInput();
  return input as (string | number[])[];
}

/**
 * @example
 * // POST {sim}/openai/v1/embeddings {"model":"text-embedding-3-small","input":"hi","dimensions":8}
 * // → {"object":"list","data":[{"object":"embedding","index":0,"embedding":[…8 values]}],"model":…,"usage":{…}}
 */
export async function embeddings(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  if (!isRecord(ctx.body)) throw badRequest('We could not parse the JSON body of your request.');
  const body = ctx.body;
  for (const name of Object.keys(body)) {
    if (!FIELDS.includes(name))
      throw badRequest(`Unrecognized request argument supplied: ${name}`, name);
  }
  const model = body.model;
  const full = typeof model === 'string' ? DIMENSIONS[model] : undefined;
  if (full === undefined) {
    throw new HttpError({
      status: 404,
      message: `The model \`${String(model)}\` does not exist or you do not have access to it.`,
      code: 'model_not_found',
    });
  }
  const inputs = inputsOf(body.input);
  const counts = inputs.map((input) =>
    typeof input === 'string' ? countTokens(input) : input.length,
  );
  const over = counts.find((count) => count > MAX_TOKENS);
  if (over !== undefined) {
    throw badRequest(
      `This model's maximum context length is ${MAX_TOKENS} tokens, however you requested ${over} tokens. Please reduce your prompt.`,
      'input',
      'context_length_exceeded',
    );
  }
  let dims = full;
  if (body.dimensions !== undefined) {
    if (model === 'text-embedding-ada-002')
      throw badRequest(
        'This model does not support specifying dimensions.',
        'dimensions',
        'invalid_value',
      );
    if (
      !Number.isInteger(body.dimensions) ||
      (body.dimensions as number) < 1 ||
      (body.dimensions as number) > full
    ) {
      throw badRequest(
        `Invalid value for 'dimensions' = ${String(body.dimensions)}. Must be between 1 and ${full}.`,
        'dimensions',
        'invalid_value',
      );
    }
    dims = body.dimensions as number;
  }
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    throw badRequest(
      `Invalid value for 'encoding_format' = ${String(format)}. Supported values are: 'float' and 'base64'.`,
      'encoding_format',
      'invalid_value',
    );
  }
  await applyLatency(ctx);
  const data = inputs.map((input, index) => {
    const vector = unit(embed(model as string, input, full).slice(0, dims));
    return {
      object: 'embedding',
      index,
      embedding: format === 'base64' ? toBase64(vector) : Array.from(vector),
    };
  });
  const tokens = counts.reduce((a, b) => a + b, 0);
  sendJson(ctx, 200, {
    object: 'list',
    data,
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

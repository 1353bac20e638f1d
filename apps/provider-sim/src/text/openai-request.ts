// Request checks both OpenAI text endpoints share: the key, the body, unknown fields, the model and
// the sampling fields, each refused with the real API's 400 (or 401 / 404).
import type { Ctx } from '../context.js';
import { authToken, badRequest, HttpError, isRecord } from '../errors.js';

/** The sampling fields chat and legacy completions share, once checked. */
export interface CommonFields {
  n: number;
  stream: boolean;
  includeUsage: boolean;
  stop: string[];
}

/**
 * The fields `readRequest` and `commonFields` read: every endpoint that checks its request with
 * them accepts these, whatever else it takes.
 */
export const SHARED_FIELDS = [
  'model',
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'stream',
  'stream_options',
] as const;

/**
 * The body and model of a request, checked in the real API's order: the key, the JSON body, any
 * field outside `known`, then the model.
 *
 * @example
 * const { body, model } = readRequest(ctx, new Set([...SHARED_FIELDS, 'prompt']));
 */
export function readRequest(
  ctx: Ctx,
  known: ReadonlySet<string>,
): { body: Record<string, unknown>; model: string } {
  checkAuth(ctx);
  const body = parseBody(ctx);
  checkFields(body, known);
  return { body, model: checkModel(body.model) };
}

export function checkAuth(ctx: Ctx): void {
  const header = ctx.req.headers.authorization;
  const key = authToken(header);
  if (!key) {
    throw new HttpError({
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    });
  }
  if (!ctx.sim.keyAccepted(key)) {
    throw new HttpError({
      status: 401,
      message: `Incorrect API key provided: ${redact(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      code: 'invalid_api_key',
    });
  }
}

function redact(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}

function parseBody(ctx: Ctx): Record<string, unknown> {
  if (!isRecord(ctx.body))
    throw badRequest(
      'We could not parse the JSON body of your request. The body must be a JSON object.',
    );
  return ctx.body;
}

/** Refuses any field outside `known`, as the real API does ("Unrecognized request argument"). */
function checkFields(body: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const key of Object.keys(body)) {
    if (!known.has(key))
      throw badRequest(`Unrecognized request argument supplied: ${key}`, key, 'unknown_parameter');
  }
}

export function checkModel(model: unknown): string {
  if (model === undefined || model === null)
    throw badRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (typeof model !== 'string' || model.length === 0)
    throw badRequest("Invalid type for 'model': expected a string.", 'model', 'invalid_type');
  if (model.startsWith('unknown-')) {
    throw new HttpError({
      status: 404,
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      code: 'model_not_found',
    });
  }
  return model;
}

export function numberIn(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value) || (integer && !Number.isInteger(value))) {
    throw badRequest(
      `Invalid type for '${name}': expected ${integer ? 'an integer' : 'a number'}.`,
      name,
      'invalid_type',
    );
  }
  if (value < min)
    throw badRequest(
      `Invalid '${name}': expected a value >= ${min}, but got ${value} instead.`,
      name,
      'below_min_value',
    );
  if (value > max)
    throw badRequest(
      `Invalid '${name}': expected a value <= ${max}, but got ${value} instead.`,
      name,
      'above_max_value',
    );
  return value;
}

export function booleanField(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw badRequest(`Invalid type for '${name}': expected a boolean.`, name, 'invalid_type');
  return value;
}

export function maxTokensOf(body: Record<string, unknown>, name: string): number | undefined {
  return numberIn(body, name, 1, 1_000_000, true);
}

function stopField(body: Record<string, unknown>): string[] {
  const stop = body.stop;
  if (stop === undefined || stop === null) return [];
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop) && stop.length <= 4 && stop.every((s) => typeof s === 'string'))
    return stop as string[];
  throw badRequest(
    "Invalid 'stop': expected a string or an array of at most 4 strings.",
    'stop',
    'invalid_value',
  );
}

/** Shared sampling fields of chat and legacy completions. */
export function commonFields(body: Record<string, unknown>): CommonFields {
  numberIn(body, 'temperature', 0, 2);
  numberIn(body, 'top_p', 0, 1);
  numberIn(body, 'presence_penalty', -2, 2);
  numberIn(body, 'frequency_penalty', -2, 2);
  const n = numberIn(body, 'n', 1, 128, true) ?? 1;
  const stream = booleanField(body, 'stream') ?? false;
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) {
      throw badRequest(
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        'stream_options',
        'invalid_value',
      );
    }
    if (!isRecord(body.stream_options))
      throw badRequest(
        "Invalid type for 'stream_options': expected an object.",
        'stream_options',
        'invalid_type',
      );
    includeUsage = booleanField(body.stream_options, 'include_usage') ?? false;
  }
  return { n, stream, includeUsage, stop: stopField(body) };
}

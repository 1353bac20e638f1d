// wire: PROVIDERS.md §2 — Anthropic Messages (and the model list).
// Served at {sim}/anthropic (+ the real /v1/... paths). Any model works except ids starting
// `unknown-` (404 not_found_error).
import { randomBytes } from 'node:crypto';
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import type { RouteDef } from '../router.js';
import { generate } from './generate.js';
import { countTokens } from './tokens.js';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export const anthropicProvider: Provider = {
  id: 'anthropic',
  prefix: '/anthropic',
  requestIdHeader: 'request-id',
  streamErrorFrame(message: string) {
    const data = { type: 'error', error: { type: 'overloaded_error', message } };
    return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
  },
  renderError(error: ErrorSpec, ctx: Ctx) {
    return {
      status: error.status,
      body: {
        type: 'error',
        error: {
          type: error.code ?? TYPE_BY_STATUS[error.status] ?? 'api_error',
          message: error.message,
        },
        request_id: ctx.requestId,
      },
    };
  },
};

const MODELS = [
  { id: 'claude-opus-4-1', display_name: 'Claude Opus 4.1', created_at: '2025-08-05T00:00:00Z' },
  {
    id: 'claude-sonnet-4-5',
    display_name: 'Claude Sonnet 4.5',
    created_at: '2025-09-29T00:00:00Z',
  },
  { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z' },
];

function checkHeaders(ctx: Ctx): void {
  const key = ctx.req.headers['x-api-key'];
  const value = Array.isArray(key) ? key[0] : key;
  if (!value) throw new HttpError({ status: 401, message: 'x-api-key header is required' });
  if (!ctx.sim.keyAccepted(value))
    throw new HttpError({ status: 401, message: 'invalid x-api-key' });
  if (!ctx.req.headers['anthropic-version']) {
    throw new HttpError({ status: 400, message: 'anthropic-version: header is required' });
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const block of content)
      if (isRecord(block) && typeof block.text === 'string') text += block.text;
    return text;
  }
  return '';
}

function optionalNumber(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  integer = false,
): void {
  const value = body[name];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || (integer && !Number.isInteger(value))) {
    throw badRequest(`${name}: Input should be a valid ${integer ? 'integer' : 'number'}`);
  }
  if (value < min || value > max) throw badRequest(`${name}: range: ${min}..${max}`);
}

interface ParsedMessages {
  model: string;
  maxTokens: number;
  stream: boolean;
  stopSequences: string[];
  key: string;
  inputTokens: number;
}

function parse(body: unknown): ParsedMessages {
  if (!isRecord(body)) throw badRequest('Request body must be a JSON object');
  const { model, max_tokens: maxTokens, messages } = body;
  if (model === undefined) throw badRequest('model: Field required');
  if (typeof model !== 'string' || model.length === 0)
    throw badRequest('model: Input should be a valid string');
  if (maxTokens === undefined) throw badRequest('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw badRequest('max_tokens: Input should be an integer greater than or equal to 1');
  }
  if (messages === undefined) throw badRequest('messages: Field required');
  if (!Array.isArray(messages)) throw badRequest('messages: Input should be a valid list');
  if (messages.length === 0) throw badRequest('messages: at least one message is required');
  optionalNumber(body, 'temperature', 0, 1);
  optionalNumber(body, 'top_p', 0, 1);
  optionalNumber(body, 'top_k', 0, Number.MAX_SAFE_INTEGER, true);
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw badRequest('stream: Input should be a valid boolean');
  let stopSequences: string[] = [];
  if (body.stop_sequences !== undefined) {
    if (
      !Array.isArray(body.stop_sequences) ||
      !body.stop_sequences.every((s) => typeof s === 'string')
    ) {
      throw badRequest('stop_sequences: Input should be a valid list of strings');
    }
    stopSequences = body.stop_sequences as string[];
  }
  let inputTokens = 0;
  if (body.system !== undefined) {
    if (typeof body.system !== 'string' && !Array.isArray(body.system)) {
      throw badRequest('system: Input should be a valid string or a list of text blocks');
    }
    inputTokens += countTokens(textOf(body.system));
  }
  let key = '';
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isRecord(message)) throw badRequest(`messages.${i}: Input should be a valid dictionary`);
    if (message.role === 'system') {
      throw badRequest(
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      );
    }
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw badRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      throw badRequest(
        `messages.${i}.content: Input should be a valid string or list of content blocks`,
      );
    }
    const text = textOf(message.content);
    // A few tokens of framing per turn, as the real count includes the role markers.
    inputTokens += 3 + countTokens(text);
    if (message.role === 'user') key = text;
  }
  if (model.startsWith('unknown-'))
    throw new HttpError({ status: 404, message: `model: ${model}` });
  return { model, maxTokens, stream: body.stream === true, stopSequences, key, inputTokens };
}

async function messages(ctx: Ctx): Promise<void> {
  checkHeaders(ctx);
  const p = parse(ctx.body);
  const g = generate(p.key, ctx.sim.options.outputTokens, p.maxTokens, p.stopSequences);
  const outputTokens = countTokens(g.text);
  const stopReason =
    g.stopSequence !== null ? 'stop_sequence' : g.finish === 'length' ? 'max_tokens' : 'end_turn';
  const id = `msg_${randomBytes(12).toString('base64url')}`;
  const usage = {
    input_tokens: p.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };

  if (!p.stream) {
    await applyLatency(ctx);
    sendJson(ctx, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model: p.model,
      content: [{ type: 'text', text: g.text }],
      stop_reason: stopReason,
      stop_sequence: g.stopSequence,
      usage,
    });
    return;
  }

  const frames: Frame[] = [
    eventFrame('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: p.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    eventFrame('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    eventFrame('ping', { type: 'ping' }),
  ];
  // Rendered by hand: this runs once per token on the benchmarks' hot path.
  const deltaHead =
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":';
  for (const piece of g.pieces) {
    frames.push({ text: `${deltaHead}${JSON.stringify(piece)}}}\n\n`, token: true });
  }
  frames.push(
    eventFrame('content_block_stop', { type: 'content_block_stop', index: 0 }),
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: g.stopSequence },
      usage: { output_tokens: outputTokens },
    }),
    eventFrame('message_stop', { type: 'message_stop' }),
  );
  await sendStream(ctx, frames);
}

function listModels(ctx: Ctx): void {
  checkHeaders(ctx);
  const data = MODELS.map((m) => ({ type: 'model', ...m }));
  sendJson(ctx, 200, {
    data,
    has_more: false,
    first_id: data[0]!.id,
    last_id: data[data.length - 1]!.id,
  });
}

function getModel(ctx: Ctx): void {
  checkHeaders(ctx);
  const id = ctx.params[0]!;
  if (id.startsWith('unknown-')) throw new HttpError({ status: 404, message: `model: ${id}` });
  const known = MODELS.find((m) => m.id === id);
  sendJson(ctx, 200, {
    type: 'model',
    id,
    display_name: known?.display_name ?? id,
    created_at: known?.created_at ?? '2025-01-01T00:00:00Z',
  });
}

export const anthropicRoutes: RouteDef[] = [
  { method: 'POST', path: '/v1/messages', handler: messages },
  { method: 'GET', path: '/v1/models', handler: listModels },
  {
    method: 'GET',
    path: '/v1/models/{id}',
    name: 'GET /anthropic/v1/models/{id}',
    handler: getModel,
  },
];

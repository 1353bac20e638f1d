// wire: docs/providers.md#2-anthropic — Anthropic Messages (and the model list).
// Served at {sim}/anthropic (+ the real /v1/... paths). Any model works except ids starting
// `unknown-` (404 not_found_error).
import { randomBytes } from 'node:crypto';
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import type { RouteDef } from '../router.js';
import { type Generation, generate } from './generate.js';
import { acknowledgeImages, checkImageBlock } from './images.js';
import { anthropicModelObject } from './models.js';
import { countTokens } from './tokens.js';
import {
  jsonAnswerForSystem,
  jsonPieces,
  planToolCalls,
  type SimTool,
  type SimToolCall,
  type SimToolChoice,
} from './tools.js';

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

/** The usage object of a message, as the Messages API reports it. */
function usageOf(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/**
 * The key as the Messages API takes it: `x-api-key`, or `Authorization: Bearer` (which
 * `@anthropic-ai/sdk` 1.x sends).
 */
function apiKeyOf(ctx: Ctx): string | undefined {
  const key = ctx.req.headers['x-api-key'];
  const value = Array.isArray(key) ? key[0] : key;
  if (value) return value;
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '');
  return bearer?.[1];
}

function checkHeaders(ctx: Ctx): void {
  const value = apiKeyOf(ctx);
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
  tools: SimTool[];
  toolChoice: SimToolChoice;
  /** The last user turn carries tool results: the model reads them and answers with text. */
  endsWithToolResult: boolean;
  /** Image blocks in the conversation. */
  images: number;
  /** The system prompt's text. */
  system: string;
}

/** `tools` and `tool_choice`, checked as the real API checks them. */
function readTools(body: Record<string, unknown>): { tools: SimTool[]; choice: SimToolChoice } {
  const tools: SimTool[] = [];
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) throw badRequest('tools: Input should be a valid list');
    body.tools.forEach((tool, i) => {
      if (!isRecord(tool)) throw badRequest(`tools.${i}: Input should be a valid dictionary`);
      if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) {
        throw badRequest(
          `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
        );
      }
      if (!isRecord(tool.input_schema))
        throw badRequest(`tools.${i}.custom.input_schema: Field required`);
      tools.push({ name: tool.name, schema: tool.input_schema });
    });
  }
  const choice = body.tool_choice;
  if (choice === undefined) return { tools, choice: { mode: 'auto', parallel: true } };
  if (!isRecord(choice)) throw badRequest('tool_choice: Input should be a valid dictionary');
  const parallel = choice.disable_parallel_tool_use !== true;
  switch (choice.type) {
    case 'auto':
      return { tools, choice: { mode: 'auto', parallel } };
    case 'any':
      return { tools, choice: { mode: 'required', parallel } };
    case 'none':
      return { tools, choice: { mode: 'none', parallel } };
    case 'tool':
      if (typeof choice.name !== 'string')
        throw badRequest('tool_choice.tool.name: Field required');
      return { tools, choice: { mode: 'named', name: choice.name, parallel } };
    default:
      throw badRequest(
        "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
      );
  }
}

/**
 * The pairing rules of tool blocks: each tool_use in an assistant turn is answered by a
 * tool_result in the very next user turn, and those results come first in that turn.
 */
function checkToolPairing(messages: Record<string, unknown>[]): void {
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!.content;
    const blocks = Array.isArray(content) ? content.filter(isRecord) : [];
    const previous = i > 0 ? messages[i - 1]!.content : undefined;
    const asked = new Set(
      (Array.isArray(previous) ? previous.filter(isRecord) : [])
        .filter((b) => b.type === 'tool_use')
        .map((b) => b.id),
    );
    let leading = true;
    const answered = new Set<unknown>();
    for (const block of blocks) {
      if (block.type !== 'tool_result') {
        leading = false;
        continue;
      }
      if (messages[i]!.role !== 'user' || !asked.has(block.tool_use_id)) {
        throw badRequest(
          `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      if (!leading) {
        throw badRequest(
          `messages.${i}.content: tool_result blocks must come first in the user message content.`,
        );
      }
      answered.add(block.tool_use_id);
    }
    const missing = [...asked].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw badRequest(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  const last = messages[messages.length - 1]!;
  if (
    last.role === 'assistant' &&
    Array.isArray(last.content) &&
    last.content.some((b) => isRecord(b) && b.type === 'tool_use')
  ) {
    // A trailing tool_use with no result yet is only allowed as a prefill the model continues;
    // the simulator has nothing to continue it with.
    throw badRequest(
      `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after.`,
    );
  }
}

/** Text of tool_result blocks (string content or text blocks). */
function toolResultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (isRecord(block) && block.type === 'tool_result') text += textOf(block.content);
  }
  return text;
}

/** The fields the real API takes; any other is "Extra inputs are not permitted". */
const MESSAGES_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'stream',
  'metadata',
  'tools',
  'tool_choice',
  'thinking',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
]);

function parse(body: unknown): ParsedMessages {
  if (!isRecord(body)) throw badRequest('Request body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!MESSAGES_FIELDS.has(key)) throw badRequest(`${key}: Extra inputs are not permitted`);
  }
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
  let endsWithToolResult = false;
  let hasToolBlocks = false;
  let images = 0;
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
    const results = toolResultText(message.content);
    if (Array.isArray(message.content)) {
      for (const [j, block] of message.content.entries()) {
        if (!isRecord(block)) continue;
        if (block.type === 'image') {
          checkImageBlock(block, `messages.${i}.content.${j}`);
          images++;
        } else if (block.type === 'tool_use') {
          hasToolBlocks = true;
          inputTokens += countTokens(JSON.stringify(block.input ?? {}));
        } else if (block.type === 'tool_result') hasToolBlocks = true;
      }
    }
    inputTokens += countTokens(results);
    if (message.role === 'user') {
      // After tool results the reply depends on them too, as a model's would.
      key = results === '' ? text : `${key}|${results}`;
      endsWithToolResult = results !== '';
    }
  }
  if (hasToolBlocks) checkToolPairing(messages as Record<string, unknown>[]);
  const { tools, choice } = readTools(body);
  if (tools.length > 0) inputTokens += countTokens(JSON.stringify(body.tools));
  if (model.startsWith('unknown-'))
    throw new HttpError({ status: 404, message: `model: ${model}` });
  return {
    model,
    maxTokens,
    stream: body.stream === true,
    stopSequences,
    key,
    inputTokens,
    tools,
    toolChoice: choice,
    endsWithToolResult,
    images,
    system: body.system === undefined ? '' : textOf(body.system),
  };
}

async function messages(ctx: Ctx): Promise<void> {
  checkHeaders(ctx);
  const p = parse(ctx.body);
  const calls = planToolCalls(p.tools, p.toolChoice, p.key, p.endsWithToolResult);
  if (calls !== null) {
    await answerWithToolUse(ctx, p, calls);
    return;
  }
  const g = asSystemAsks(
    p,
    acknowledgeImages(
      generate(p.key, ctx.sim.options.outputTokens, p.maxTokens, p.stopSequences),
      p.images,
    ),
  );
  const outputTokens = countTokens(g.text);
  const stopReason =
    g.stopSequence !== null ? 'stop_sequence' : g.finish === 'length' ? 'max_tokens' : 'end_turn';
  const id = `msg_${randomBytes(12).toString('base64url')}`;
  const usage = usageOf(p.inputTokens, outputTokens);

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

/** The answer in JSON when the system prompt asks for JSON, streamed a few characters a piece. */
function asSystemAsks(p: ParsedMessages, g: Generation): Generation {
  const json = jsonAnswerForSystem(p.system, p.key, g.text);
  if (json === null) return g;
  return { pieces: jsonPieces(json), text: json, finish: 'stop', stopSequence: null };
}

/** A message that is tool_use blocks only (stop reason `tool_use`), streamed or not. */
async function answerWithToolUse(ctx: Ctx, p: ParsedMessages, calls: SimToolCall[]): Promise<void> {
  const id = `msg_${randomBytes(12).toString('base64url')}`;
  const blocks = calls.map((call) => ({
    type: 'tool_use',
    id: `toolu_${randomBytes(12).toString('base64url')}`,
    name: call.name,
    input: call.input,
  }));
  const outputTokens = countTokens(calls.map((c) => c.name + c.json).join(''));
  const usage = usageOf(p.inputTokens, outputTokens);
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model: p.model,
    content: blocks,
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage,
  };
  if (!p.stream) {
    await applyLatency(ctx);
    sendJson(ctx, 200, message);
    return;
  }
  const frames: Frame[] = [
    eventFrame('message_start', {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  blocks.forEach((block, index) => {
    frames.push(
      eventFrame('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { ...block, input: {} },
      }),
    );
    if (index === 0) frames.push(eventFrame('ping', { type: 'ping' }));
    // The real API opens the arguments with an empty piece, then streams them in fragments.
    for (const piece of ['', ...jsonPieces(JSON.stringify(block.input))]) {
      const delta = { type: 'input_json_delta', partial_json: piece };
      frames.push(
        eventFrame(
          'content_block_delta',
          { type: 'content_block_delta', index, delta },
          piece !== '',
        ),
      );
    }
    frames.push(eventFrame('content_block_stop', { type: 'content_block_stop', index }));
  });
  frames.push(
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    eventFrame('message_stop', { type: 'message_stop' }),
  );
  await sendStream(ctx, frames);
}

/** Page size bounds of `GET /v1/models` (`limit`, default 20, 1 to 1000). */
const LIST_LIMIT = { default: 20, max: 1000 };

function listLimit(ctx: Ctx): number {
  const raw = ctx.query.get('limit');
  if (raw === null) return LIST_LIMIT.default;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT.max) {
    throw new HttpError({
      status: 400,
      message: `limit: Input should be between 1 and ${LIST_LIMIT.max}`,
    });
  }
  return limit;
}

/** Paginated as the real API: `limit`, then `after_id` = the previous page's `last_id`. */
function listModels(ctx: Ctx): void {
  checkHeaders(ctx);
  const ids = ctx.sim.options.textModels.anthropic;
  const limit = listLimit(ctx);
  const afterId = ctx.query.get('after_id');
  // An after_id the list no longer holds gives an empty last page.
  const start = afterId === null ? 0 : ids.indexOf(afterId) + 1 || ids.length;
  const data = ids.slice(start, start + limit).map(anthropicModelObject);
  sendJson(ctx, 200, {
    data,
    has_more: start + limit < ids.length,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  });
}

function getModel(ctx: Ctx): void {
  checkHeaders(ctx);
  const id = ctx.params[0]!;
  if (id.startsWith('unknown-')) throw new HttpError({ status: 404, message: `model: ${id}` });
  sendJson(ctx, 200, anthropicModelObject(id));
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

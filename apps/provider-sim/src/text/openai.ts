// wire: docs/providers.md#1-openai — OpenAI Chat Completions, legacy Completions, Models.
// Served at {sim}/openai/v1. Any model id works except ids starting `unknown-` (404 model_not_found).
import { randomBytes } from 'node:crypto';
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { authToken, badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, dataFrame, type Frame, sendJson, sendStream } from '../respond.js';
import type { RouteDef } from '../router.js';
import { type Generation, generate } from './generate.js';
import { acknowledgeImages, checkImagePart } from './images.js';
import { countTokens } from './tokens.js';
import {
  jsonAnswer,
  jsonPieces,
  planToolCalls,
  type SimTool,
  type SimToolCall,
  type SimToolChoice,
} from './tools.js';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
};
const CODE_BY_STATUS: Record<number, string> = {
  401: 'invalid_api_key',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
};

export const openaiProvider: Provider = {
  id: 'openai',
  prefix: '/openai/v1',
  requestIdHeader: 'x-request-id',
  streamErrorFrame(message: string) {
    return `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`;
  },
  renderError(error: ErrorSpec) {
    const type =
      TYPE_BY_STATUS[error.status] ??
      (error.status >= 500 ? 'server_error' : 'invalid_request_error');
    return {
      status: error.status,
      body: {
        error: {
          message: error.message,
          type,
          param: error.param ?? null,
          code: error.code ?? CODE_BY_STATUS[error.status] ?? null,
        },
      },
    };
  },
};

/** Static rate-limit headers, as the real API sends on every answer. */
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
  'x-ratelimit-limit-tokens': '30000000',
  'x-ratelimit-remaining-tokens': '29999000',
  'x-ratelimit-reset-tokens': '0s',
};

const MODEL_CREATED = 1715367049;
const ROLES = new Set(['developer', 'system', 'user', 'assistant', 'tool', 'function']);

/** The fields the real API takes; it refuses any other with "Unrecognized request argument". */
const CHAT_FIELDS = new Set([
  'model',
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'user',
  'service_tier',
  'stream',
  'stream_options',
  'metadata',
  'store',
  'modalities',
  'audio',
  'prediction',
  'reasoning_effort',
  'verbosity',
  'web_search_options',
  'prompt_cache_key',
  'safety_identifier',
  'functions',
  'function_call',
]);
const COMPLETION_FIELDS = new Set([
  'model',
  'prompt',
  'max_tokens',
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'logit_bias',
  'logprobs',
  'user',
  'stream',
  'stream_options',
  'suffix',
  'echo',
  'best_of',
]);

function checkFields(body: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const key of Object.keys(body)) {
    if (!known.has(key))
      throw badRequest(`Unrecognized request argument supplied: ${key}`, key, 'unknown_parameter');
  }
}

function checkAuth(ctx: Ctx): void {
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

function checkModel(model: unknown): string {
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

function numberIn(
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

function booleanField(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw badRequest(`Invalid type for '${name}': expected a boolean.`, name, 'invalid_type');
  return value;
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
function commonFields(body: Record<string, unknown>): {
  n: number;
  stream: boolean;
  includeUsage: boolean;
  stop: string[];
} {
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

/** Text of a message `content` (string or parts); images and other parts count as nothing. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const part of content)
      if (isRecord(part) && typeof part.text === 'string') text += part.text;
    return text;
  }
  return '';
}

interface ChatPrompt {
  key: string;
  promptTokens: number;
  /** The last message is a tool result: the model reads it and answers with text. */
  endsWithToolResult: boolean;
  /** Image parts in the conversation. */
  images: number;
}

/**
 * The pairing rules of tool messages: an assistant message with tool_calls is followed by one
 * tool message per call id, and a tool message answers a call of the assistant message before it.
 */
function checkToolPairing(messages: Record<string, unknown>[]): void {
  let pending: string[] = [];
  let pendingAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || id === '') {
        throw badRequest(
          `Missing required parameter: 'messages[${i}].tool_call_id'.`,
          `messages[${i}].tool_call_id`,
          'missing_required_parameter',
        );
      }
      if (!pending.includes(id)) {
        throw badRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages[${i}].role`,
        );
      }
      pending = pending.filter((p) => p !== id);
      continue;
    }
    if (pending.length > 0) break;
    pending = [];
    const calls = message.role === 'assistant' ? message.tool_calls : undefined;
    if (Array.isArray(calls) && calls.length > 0) {
      pendingAt = i;
      for (let j = 0; j < calls.length; j++) {
        const call = calls[j];
        if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(call.function)) {
          throw badRequest(
            `Invalid 'messages[${i}].tool_calls[${j}]': expected an object with id, type and function.`,
            `messages[${i}].tool_calls[${j}]`,
            'invalid_type',
          );
        }
        pending.push(call.id);
      }
    }
  }
  if (pending.length > 0) {
    throw badRequest(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
      `messages.[${pendingAt}].role`,
    );
  }
}

/** `tools`, `tool_choice` and `parallel_tool_calls`, checked as the real API checks them. */
function readTools(body: Record<string, unknown>): { tools: SimTool[]; choice: SimToolChoice } {
  const tools: SimTool[] = [];
  const raw = body.tools;
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw))
      throw badRequest("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
    raw.forEach((tool, i) => {
      const fn = isRecord(tool) ? tool.function : undefined;
      if (!isRecord(tool) || tool.type !== 'function' || !isRecord(fn)) {
        throw badRequest(
          `Invalid value for 'tools[${i}]': expected a function tool.`,
          `tools[${i}]`,
          'invalid_value',
        );
      }
      if (typeof fn.name !== 'string' || fn.name === '') {
        throw badRequest(
          `Missing required parameter: 'tools[${i}].function.name'.`,
          `tools[${i}].function.name`,
          'missing_required_parameter',
        );
      }
      tools.push({ name: fn.name, schema: fn.parameters });
    });
  }
  const parallel = booleanField(body, 'parallel_tool_calls') ?? true;
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return { tools, choice: { mode: 'auto', parallel } };
  if (tools.length === 0) {
    throw badRequest(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      'tool_choice',
    );
  }
  if (choice === 'none' || choice === 'auto' || choice === 'required')
    return { tools, choice: { mode: choice, parallel } };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string')
    return { tools, choice: { mode: 'named', name: choice.function.name, parallel } };
  throw badRequest(
    "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a named function.",
    'tool_choice',
    'invalid_value',
  );
}

function readMessages(value: unknown): ChatPrompt {
  if (value === undefined)
    throw badRequest(
      "Missing required parameter: 'messages'.",
      'messages',
      'missing_required_parameter',
    );
  if (!Array.isArray(value))
    throw badRequest("Invalid type for 'messages': expected an array.", 'messages', 'invalid_type');
  if (value.length === 0)
    throw badRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  let key = '';
  let toolResults = '';
  let hasTools = false;
  let images = 0;
  // The usual per-message framing of chat models: 3 tokens per message, 3 to prime the reply.
  let promptTokens = 3;
  for (let i = 0; i < value.length; i++) {
    const message = value[i];
    if (!isRecord(message))
      throw badRequest(
        `Invalid type for 'messages[${i}]': expected an object.`,
        `messages[${i}]`,
        'invalid_type',
      );
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      throw badRequest(
        `Invalid value for 'messages[${i}].role': expected one of 'developer', 'system', 'user', 'assistant', 'tool'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    const content = message.content;
    const nullable = message.role === 'assistant';
    if (message.role === 'tool' || message.tool_calls !== undefined) hasTools = true;
    if (
      !(
        typeof content === 'string' ||
        Array.isArray(content) ||
        (nullable && (content === null || content === undefined))
      )
    ) {
      throw badRequest(
        `Invalid type for 'messages[${i}].content': expected a string or an array of content parts.`,
        `messages[${i}].content`,
        'invalid_type',
      );
    }
    if (Array.isArray(content)) {
      content.forEach((part, j) => {
        if (!isRecord(part) || part.type !== 'image_url') return;
        checkImagePart(part, `messages[${i}].content[${j}]`);
        images++;
      });
    }
    const text = contentText(content);
    promptTokens += 3 + countTokens(text);
    if (Array.isArray(message.tool_calls))
      promptTokens += countTokens(JSON.stringify(message.tool_calls));
    if (message.role === 'user') {
      key = text;
      toolResults = '';
    } else if (message.role === 'tool') toolResults += text;
  }
  if (hasTools) checkToolPairing(value as Record<string, unknown>[]);
  // Tool results since the last assistant turn (a user may add text after them, as an Anthropic
  // user turn holds results and text together): the model reads them and answers with text.
  let endsWithToolResult = false;
  for (let i = value.length - 1; i >= 0; i--) {
    const role = (value[i] as Record<string, unknown>).role;
    if (role === 'assistant') break;
    if (role === 'tool') endsWithToolResult = true;
  }
  // After tool results the reply depends on them too, as a model's would.
  if (toolResults !== '') key = `${key}|${toolResults}`;
  return { key, promptTokens, endsWithToolResult, images };
}

function maxTokensOf(body: Record<string, unknown>, name: string): number | undefined {
  return numberIn(body, name, 1, 1_000_000, true);
}

/** The `system_fingerprint` of every answer: one simulated backend configuration. */
const FINGERPRINT = 'fp_sim0001';

function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}

function usageOf(promptTokens: number, completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** A non-streamed `chat.completion`: the envelope every chat answer shares, around its choices. */
function sendChatCompletion(
  ctx: Ctx,
  head: { id: string; created: number; model: string },
  choices: unknown[],
  usage: ReturnType<typeof usageOf>,
): void {
  sendJson(
    ctx,
    200,
    {
      id: head.id,
      object: 'chat.completion',
      created: head.created,
      model: head.model,
      choices,
      usage,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
    },
    RATE_LIMIT_HEADERS,
  );
}

function parseBody(ctx: Ctx): Record<string, unknown> {
  if (!isRecord(ctx.body))
    throw badRequest(
      'We could not parse the JSON body of your request. The body must be a JSON object.',
    );
  return ctx.body;
}

async function chatCompletions(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const body = parseBody(ctx);
  checkFields(body, CHAT_FIELDS);
  const model = checkModel(body.model);
  const prompt = readMessages(body.messages);
  const common = commonFields(body);
  numberIn(body, 'top_logprobs', 0, 20, true);
  const maxTokens = maxTokensOf(body, 'max_completion_tokens') ?? maxTokensOf(body, 'max_tokens');
  const { tools, choice } = readTools(body);
  if (tools.length > 0) prompt.promptTokens += countTokens(JSON.stringify(body.tools));
  const calls = planToolCalls(tools, choice, prompt.key, prompt.endsWithToolResult);
  if (calls !== null) {
    await answerWithToolCalls(ctx, model, calls, common, prompt.promptTokens);
    return;
  }

  const defaultTokens = ctx.sim.options.outputTokens;
  const generations: Generation[] = [];
  for (let i = 0; i < common.n; i++) {
    const g = generate(prompt.key, defaultTokens, maxTokens, common.stop, i);
    const seen = acknowledgeImages(g, prompt.images);
    generations.push(asResponseFormat(body.response_format, prompt.key, seen));
  }
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);

  if (!common.stream) {
    await applyLatency(ctx);
    let completionTokens = 0;
    const choices = generations.map((g, index) => {
      completionTokens += countTokens(g.text);
      return {
        index,
        message: { role: 'assistant', content: g.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: g.finish,
      };
    });
    sendChatCompletion(
      ctx,
      { id, created, model },
      choices,
      usageOf(prompt.promptTokens, completionTokens),
    );
    return;
  }

  // Chunks differ only in `choices`: serialize the shared head once and splice the rest in, since
  // this loop runs once per token on the benchmarks' hot path.
  const head = JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  }).slice(0, -1);
  const tail = common.includeUsage ? ',"usage":null}' : '}';
  const chunk = (choices: unknown[]) => `${head},"choices":${JSON.stringify(choices)}${tail}`;
  const frames: Frame[] = [];
  let completionTokens = 0;
  generations.forEach((g, index) => {
    frames.push(
      dataFrame(
        chunk([
          {
            index,
            delta: { role: 'assistant', content: '', refusal: null },
            logprobs: null,
            finish_reason: null,
          },
        ]),
      ),
    );
    const pieceHead = `${head},"choices":[{"index":${index},"delta":{"content":`;
    const pieceTail = `},"logprobs":null,"finish_reason":null}]${tail}`;
    for (const piece of g.pieces) {
      frames.push({
        text: `data: ${pieceHead}${JSON.stringify(piece)}${pieceTail}\n\n`,
        token: true,
      });
    }
    frames.push(dataFrame(chunk([{ index, delta: {}, logprobs: null, finish_reason: g.finish }])));
    completionTokens += countTokens(g.text);
  });
  if (common.includeUsage) {
    frames.push(
      dataFrame(
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          service_tier: 'default',
          system_fingerprint: FINGERPRINT,
          choices: [],
          usage: usageOf(prompt.promptTokens, completionTokens),
        }),
      ),
    );
  }
  frames.push(dataFrame('[DONE]'));
  await sendStream(ctx, frames);
}

/** A generation in the requested `response_format`: JSON text, streamed a few characters a piece. */
function asResponseFormat(format: unknown, key: string, g: Generation): Generation {
  if (format !== undefined && format !== null && !isRecord(format))
    throw badRequest(
      "Invalid type for 'response_format': expected an object.",
      'response_format',
      'invalid_type',
    );
  const json = jsonAnswer(format, key, g.text);
  if (json === null) return g;
  return { pieces: jsonPieces(json), text: json, finish: 'stop', stopSequence: null };
}

/** A chat answer that is tool calls only (finish reason `tool_calls`), streamed or not. */
async function answerWithToolCalls(
  ctx: Ctx,
  model: string,
  calls: SimToolCall[],
  common: { n: number; stream: boolean; includeUsage: boolean },
  promptTokens: number,
): Promise<void> {
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = calls.map((call) => ({
    id: newId('call_'),
    type: 'function',
    function: { name: call.name, arguments: call.json },
  }));
  const perChoice = countTokens(calls.map((c) => c.name + c.json).join(''));
  const completionTokens = perChoice * common.n;
  const choices = Array.from({ length: common.n }, (_, index) => index);

  if (!common.stream) {
    await applyLatency(ctx);
    sendChatCompletion(
      ctx,
      { id, created, model },
      choices.map((index) => ({
        index,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: toolCalls,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      })),
      usageOf(promptTokens, completionTokens),
    );
    return;
  }

  const head = {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: FINGERPRINT,
  };
  const chunk = (index: number, delta: unknown, finish: string | null) =>
    JSON.stringify({
      ...head,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
      ...(common.includeUsage ? { usage: null } : {}),
    });
  const frames: Frame[] = [];
  for (const index of choices) {
    frames.push(dataFrame(chunk(index, { role: 'assistant', content: null, refusal: null }, null)));
    toolCalls.forEach((call, i) => {
      // The first piece names the call; the arguments follow a few characters at a time.
      const opening = {
        index: i,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      frames.push(dataFrame(chunk(index, { tool_calls: [opening] }, null)));
      for (const piece of jsonPieces(call.function.arguments)) {
        const delta = { tool_calls: [{ index: i, function: { arguments: piece } }] };
        frames.push(dataFrame(chunk(index, delta, null), true));
      }
    });
    frames.push(dataFrame(chunk(index, {}, 'tool_calls')));
  }
  if (common.includeUsage) {
    frames.push(
      dataFrame(
        JSON.stringify({ ...head, choices: [], usage: usageOf(promptTokens, completionTokens) }),
      ),
    );
  }
  frames.push(dataFrame('[DONE]'));
  await sendStream(ctx, frames);
}

function readPrompt(value: unknown): string[] {
  if (value === undefined || value === null)
    throw badRequest(
      "Missing required parameter: 'prompt'.",
      'prompt',
      'missing_required_parameter',
    );
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0) {
    if (value.every((p) => typeof p === 'string')) return value as string[];
    // Token arrays: one prompt of numbers, or many.
    if (value.every((p) => typeof p === 'number')) return [value.join(' ')];
    if (value.every((p) => Array.isArray(p) && p.every((t) => typeof t === 'number')))
      return value.map((p) => (p as number[]).join(' '));
  }
  throw badRequest(
    "Invalid 'prompt': expected a string, an array of strings, or token arrays.",
    'prompt',
    'invalid_value',
  );
}

async function completions(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const body = parseBody(ctx);
  checkFields(body, COMPLETION_FIELDS);
  const model = checkModel(body.model);
  const prompts = readPrompt(body.prompt);
  const common = commonFields(body);
  numberIn(body, 'logprobs', 0, 5, true);
  numberIn(body, 'best_of', 1, 20, true);
  const echo = booleanField(body, 'echo') ?? false;
  // Legacy completions default to 16 tokens.
  const maxTokens = maxTokensOf(body, 'max_tokens') ?? 16;

  const id = newId('cmpl-');
  const created = Math.floor(Date.now() / 1000);
  let promptTokens = 0;
  let completionTokens = 0;
  const generations: Array<{ g: Generation; prompt: string }> = [];
  for (const prompt of prompts) {
    promptTokens += countTokens(prompt);
    for (let i = 0; i < common.n; i++) {
      const g = generate(prompt, ctx.sim.options.outputTokens, maxTokens, common.stop, i);
      completionTokens += countTokens(g.text);
      generations.push({ g, prompt });
    }
  }
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };

  if (!common.stream) {
    await applyLatency(ctx);
    sendJson(
      ctx,
      200,
      {
        id,
        object: 'text_completion',
        created,
        model,
        choices: generations.map(({ g, prompt }, index) => ({
          text: echo ? prompt + g.text : g.text,
          index,
          logprobs: null,
          finish_reason: g.finish,
        })),
        usage,
        system_fingerprint: FINGERPRINT,
      },
      RATE_LIMIT_HEADERS,
    );
    return;
  }

  const chunk = (index: number, text: string, finish: string | null) =>
    JSON.stringify({
      id,
      object: 'text_completion',
      created,
      model,
      choices: [{ text, index, logprobs: null, finish_reason: finish }],
      system_fingerprint: FINGERPRINT,
    });
  const frames: Frame[] = [];
  generations.forEach(({ g, prompt }, index) => {
    if (echo) frames.push(dataFrame(chunk(index, prompt, null)));
    for (const piece of g.pieces) frames.push(dataFrame(chunk(index, piece, null), true));
    frames.push(dataFrame(chunk(index, '', g.finish)));
  });
  if (common.includeUsage) {
    frames.push(
      dataFrame(
        JSON.stringify({
          id,
          object: 'text_completion',
          created,
          model,
          choices: [],
          usage,
          system_fingerprint: FINGERPRINT,
        }),
      ),
    );
  }
  frames.push(dataFrame('[DONE]'));
  await sendStream(ctx, frames);
}

/** Who owns a model, as the real list says: the organisation for a fine-tune, else `system`. */
function ownerOf(id: string): string {
  if (id.startsWith('ft:')) return id.split(':')[2] || 'user';
  return 'system';
}

function modelObject(id: string) {
  return { id, object: 'model', created: MODEL_CREATED, owned_by: ownerOf(id) };
}

function listModels(ctx: Ctx): void {
  checkAuth(ctx);
  sendJson(ctx, 200, { object: 'list', data: ctx.sim.options.textModels.openai.map(modelObject) });
}

function getModel(ctx: Ctx): void {
  checkAuth(ctx);
  const id = ctx.params[0]!;
  if (id.startsWith('unknown-')) {
    throw new HttpError({
      status: 404,
      message: `The model '${id}' does not exist`,
      code: 'model_not_found',
      param: 'model',
    });
  }
  sendJson(ctx, 200, modelObject(id));
}

export const openaiRoutes: RouteDef[] = [
  { method: 'POST', path: '/chat/completions', handler: chatCompletions },
  { method: 'POST', path: '/completions', handler: completions },
  { method: 'GET', path: '/models', handler: listModels },
  { method: 'GET', path: '/models/*', name: 'GET /openai/v1/models/{id}', handler: getModel },
];

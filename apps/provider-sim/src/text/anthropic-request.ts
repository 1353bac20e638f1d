// A Messages request checked field by field, in the order the real API reports the first error, and
// read into what the answer needs.
import { badRequest, HttpError, isRecord } from '../errors.js';
import { readConversation } from './anthropic-conversation.js';
import { wantsThinking } from './anthropic-thinking.js';
import { readTools } from './anthropic-tools.js';
import { textOf } from './common.js';
import { type AnthropicCacheUsage, uncached } from './prompt-cache.js';
import { countTokens } from './tokens.js';
import type { SimTool, SimToolChoice } from './tools.js';

export interface ParsedMessages {
  model: string;
  maxTokens: number;
  stream: boolean;
  stopSequences: string[];
  key: string;
  inputTokens: number;
  /** `inputTokens` split as the prompt cache reports it (nothing cached until the handler asks it). */
  input: AnthropicCacheUsage;
  tools: SimTool[];
  toolChoice: SimToolChoice;
  /** The last user turn carries tool results: the model reads them and answers with text. */
  endsWithToolResult: boolean;
  /** Image blocks in the conversation. */
  images: number;
  /** The system prompt's text. */
  system: string;
  /** The request asks for extended thinking (`enabled` or `adaptive`). */
  thinking: boolean;
}

/**
 * The fields the real API takes; any other is "Extra inputs are not permitted" (checked against
 * @anthropic-ai/sdk 1.14.0 MessageCreateParams, plus the beta fields Claude Code sends).
 */
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
  'output_config',
  'cache_control',
  'speed',
  'inference_geo',
]);

export function parse(raw: unknown): ParsedMessages {
  const { body, model, maxTokens, messages } = checkRequired(raw);
  optionalNumber(body, 'temperature', 0, 1);
  optionalNumber(body, 'top_p', 0, 1);
  optionalNumber(body, 'top_k', 0, Number.MAX_SAFE_INTEGER, true);
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    throw badRequest('stream: Input should be a valid boolean');
  const stopSequences = readStopSequences(body.stop_sequences);
  const systemTokens = systemTokensOf(body.system);
  const conversation = readConversation(messages);
  const { tools, choice } = readTools(body);
  let inputTokens = systemTokens + conversation.inputTokens;
  if (tools.length > 0) inputTokens += countTokens(JSON.stringify(body.tools));
  if (model.startsWith('unknown-'))
    throw new HttpError({ status: 404, message: `model: ${model}` });
  return {
    model,
    maxTokens,
    stream: body.stream === true,
    stopSequences,
    key: conversation.key,
    inputTokens,
    input: uncached(inputTokens),
    tools,
    toolChoice: choice,
    endsWithToolResult: conversation.endsWithToolResult,
    images: conversation.images,
    system: body.system === undefined ? '' : textOf(body.system),
    thinking: wantsThinking(body.thinking),
  };
}

/** The body is an object of known fields with a model, max_tokens and a non-empty messages list. */
function checkRequired(body: unknown): {
  body: Record<string, unknown>;
  model: string;
  maxTokens: number;
  messages: unknown[];
} {
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
  return { body, model, maxTokens, messages };
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

function readStopSequences(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw badRequest('stop_sequences: Input should be a valid list of strings');
  }
  return value as string[];
}

/** The tokens of the system prompt, once checked. */
function systemTokensOf(system: unknown): number {
  if (system === undefined) return 0;
  if (typeof system !== 'string' && !Array.isArray(system)) {
    throw badRequest('system: Input should be a valid string or a list of text blocks');
  }
  return countTokens(textOf(system));
}

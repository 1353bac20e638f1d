// The `messages` of a chat request: checked as the real API checks them, then read into the prompt
// the simulated model answers (its key, its token count, its images).
import { badRequest, isRecord } from '../errors.js';
import { textOf } from './common.js';
import { checkImagePart } from './images.js';
import { checkToolPairing } from './openai-tools.js';
import { countTokens } from './tokens.js';

const ROLES = new Set(['developer', 'system', 'user', 'assistant', 'tool', 'function']);

export interface ChatPrompt {
  key: string;
  promptTokens: number;
  /** The last message is a tool result: the model reads it and answers with text. */
  endsWithToolResult: boolean;
  /** Image parts in the conversation. */
  images: number;
}

export function readMessages(value: unknown): ChatPrompt {
  const list = checkMessageList(value);
  const messages: Record<string, unknown>[] = [];
  let key = '';
  let toolResults = '';
  let hasTools = false;
  let images = 0;
  // The usual per-message framing of chat models: 3 tokens per message, 3 to prime the reply.
  let promptTokens = 3;
  for (let i = 0; i < list.length; i++) {
    const message = checkMessage(list[i], i);
    messages.push(message);
    if (message.role === 'tool' || message.tool_calls !== undefined) hasTools = true;
    images += countImages(message.content, i);
    const text = textOf(message.content);
    promptTokens += 3 + countTokens(text);
    if (Array.isArray(message.tool_calls))
      promptTokens += countTokens(JSON.stringify(message.tool_calls));
    if (message.role === 'user') {
      key = text;
      toolResults = '';
    } else if (message.role === 'tool') toolResults += text;
  }
  if (hasTools) checkToolPairing(messages);
  // After tool results the reply depends on them too, as a model's would.
  if (toolResults !== '') key = `${key}|${toolResults}`;
  return { key, promptTokens, endsWithToolResult: endsWithToolResult(messages), images };
}

function checkMessageList(value: unknown): unknown[] {
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
  return value;
}

/** Message `i`: an object with a known role and string or parts content (null for the assistant). */
function checkMessage(message: unknown, i: number): Record<string, unknown> {
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
  return message;
}

/** The `image_url` parts of message `i`'s content, each checked. */
function countImages(content: unknown, i: number): number {
  if (!Array.isArray(content)) return 0;
  let images = 0;
  content.forEach((part, j) => {
    if (!isRecord(part) || part.type !== 'image_url') return;
    checkImagePart(part, `messages[${i}].content[${j}]`);
    images++;
  });
  return images;
}

/**
 * Tool results since the last assistant turn (a user may add text after them, as an Anthropic
 * user turn holds results and text together): the model reads them and answers with text.
 */
function endsWithToolResult(messages: Record<string, unknown>[]): boolean {
  let endsWithToolResult = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]!.role;
    if (role === 'assistant') break;
    if (role === 'tool') endsWithToolResult = true;
  }
  return endsWithToolResult;
}

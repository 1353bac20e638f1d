/**
 * Quick checks for the bodies almost every client sends — model, plain-text messages, a few
 * numbers — that return exactly what the spec's zod schema would (the same fields, with its
 * defaults filled in), or `null` for anything else, which then goes through zod as before: one for
 * chat completions (`zCreateChatCompletionRequest`), one for messages (`zCreateMessageRequest`).
 *
 * What it saves: ≈ 15 % of the gateway's CPU per plain chat request (zod's nested parsers run cold
 * on every request; this is a few lines). zod stays the one place where the rules live and the
 * errors come from: this path never rejects, it only recognises bodies zod is known to accept —
 * `body-fast-paths.test.ts` checks each against zod on thousands of generated bodies, inside and at
 * the edges of its domain.
 */

import type { zCreateChatCompletionRequest, zCreateMessageRequest } from '@modelgate/core/zod';
import type { z } from 'zod';

export type ChatBody = z.output<typeof zCreateChatCompletionRequest>;
export type MessagesBody = z.output<typeof zCreateMessageRequest>;

const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);
const MESSAGES_ROLES = new Set(['user', 'assistant']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Chat messages with a role, a string content and an optional name; nothing else. (Only an
 * assistant message with tool_calls may go without content, and those are zod's to check.)
 */
function plainChatMessages(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const message of messages) {
    if (!isPlainObject(message)) return false;
    for (const key in message) {
      const value = message[key];
      if (key === 'role') {
        if (typeof value !== 'string' || !CHAT_ROLES.has(value)) return false;
      } else if (key === 'content') {
        if (typeof value !== 'string') return false;
      } else if (key === 'name') {
        if (typeof value !== 'string' || value.length < 1 || value.length > 64) return false;
      } else return false;
    }
    if (!('role' in message) || !('content' in message)) return false;
  }
  return true;
}

/** Messages-API messages: a user or assistant role and a string content; nothing else. */
function plainMessagesApiMessages(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const message of messages) {
    if (!isPlainObject(message)) return false;
    let keys = 0;
    for (const key in message) {
      const value = message[key];
      if (key === 'role') {
        if (typeof value !== 'string' || !MESSAGES_ROLES.has(value)) return false;
      } else if (key === 'content') {
        if (typeof value !== 'string') return false;
      } else return false;
      keys++;
    }
    if (keys !== 2) return false; // both are required
  }
  return true;
}

const inRange = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && value >= min && value <= max;
const nullishInRange = (value: unknown, min: number, max: number) =>
  value === null || inRange(value, min, max);
/** The spec's `maximum` for max_tokens and max_completion_tokens (the equivalence test checks it). */
const MAX_OUTPUT_TOKENS_FIELD = 1_000_000;
const isTokenCount = (value: unknown) =>
  Number.isSafeInteger(value) &&
  (value as number) >= 1 &&
  (value as number) <= MAX_OUTPUT_TOKENS_FIELD;
const nullishTokenCount = (value: unknown) => value === null || isTokenCount(value);

/**
 * @returns the body as zod would output it (zod's defaults are filled in on `raw` itself, which
 *   the caller has just parsed), or null when it is not the common shape.
 *
 * @example
 * const body = chatBodyFastPath(raw) ?? validateBody(zCreateChatCompletionRequest, raw);
 */
export function chatBodyFastPath(raw: unknown): ChatBody | null {
  if (!isPlainObject(raw)) return null;
  const body = raw;
  let hasModel = false;
  let hasMessages = false;
  for (const key in body) {
    const value = body[key];
    switch (key) {
      case 'model':
        if (typeof value !== 'string' || value.length === 0) return null;
        hasModel = true;
        break;
      case 'messages':
        if (!plainChatMessages(value)) return null;
        hasMessages = true;
        break;
      case 'stream':
        if (typeof value !== 'boolean' && value !== null) return null;
        break;
      case 'temperature':
        if (!nullishInRange(value, 0, 2)) return null;
        break;
      case 'top_p':
        if (!nullishInRange(value, 0, 1)) return null;
        break;
      case 'max_tokens':
      case 'max_completion_tokens':
        if (!nullishTokenCount(value)) return null;
        break;
      default:
        return null; // any other field: zod decides
    }
  }
  if (!hasModel || !hasMessages) return null;
  // zod's `.default()`s, which apply when the field is absent (not when it is null).
  if (body.stream === undefined) body.stream = false;
  if (body.n === undefined) body.n = 1;
  return body as ChatBody;
}

/**
 * The same for `POST /v1/messages`: model, string-content messages, max_tokens, and optionally a
 * string system prompt, temperature, top_p and stream. Unlike chat, these fields may not be null.
 *
 * @example
 * const body = messagesBodyFastPath(raw) ?? validateBody(zCreateMessageRequest, raw);
 */
export function messagesBodyFastPath(raw: unknown): MessagesBody | null {
  if (!isPlainObject(raw)) return null;
  const body = raw;
  let required = 0;
  for (const key in body) {
    const value = body[key];
    switch (key) {
      case 'model':
        if (typeof value !== 'string' || value.length === 0) return null;
        required++;
        break;
      case 'messages':
        if (!plainMessagesApiMessages(value)) return null;
        required++;
        break;
      case 'max_tokens':
        if (!isTokenCount(value)) return null;
        required++;
        break;
      case 'system':
        if (typeof value !== 'string') return null;
        break;
      case 'stream':
        if (typeof value !== 'boolean') return null;
        break;
      case 'temperature':
      case 'top_p':
        if (!inRange(value, 0, 1)) return null;
        break;
      default:
        return null; // any other field: zod decides
    }
  }
  if (required !== 3) return null;
  if (body.stream === undefined) body.stream = false; // zod's `.default(false)`
  return body as MessagesBody;
}

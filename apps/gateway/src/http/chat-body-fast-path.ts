/**
 * A quick check for the chat body almost every client sends — model, plain-text messages, a few
 * numbers — that returns exactly what `zCreateChatCompletionRequest` would (the same fields, with
 * its defaults filled in), or `null` for anything else, which then goes through zod as before.
 *
 * Why: on a gateway serving one request at a time, the CPU's caches are cold at each request's
 * start, and zod's generic machinery (a dozen nested parsers per message) cost ≈ 45 µs of the
 * gateway's ≈ 400 µs of own latency; this touches a few lines of code instead (PERFORMANCE.md,
 * round 6). zod stays the one place where the rules live and the errors come from: this path never
 * rejects, it only recognises bodies zod is known to accept — `chat-body-fast-path.test.ts` checks
 * it against zod on thousands of generated bodies, inside and at the edges of its domain.
 */

import type { zCreateChatCompletionRequest } from '@modelgate/core/zod';
import type { z } from 'zod';

export type ChatBody = z.output<typeof zCreateChatCompletionRequest>;

const ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** Messages with a role, a string (or null) content and an optional name; nothing else. */
function plainMessages(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
    for (const key in message) {
      const value = (message as Record<string, unknown>)[key];
      if (key === 'role') {
        if (typeof value !== 'string' || !ROLES.has(value)) return false;
      } else if (key === 'content') {
        if (typeof value !== 'string' && value !== null) return false;
      } else if (key === 'name') {
        if (typeof value !== 'string' || value.length < 1 || value.length > 64) return false;
      } else return false;
    }
    if (!('role' in message)) return false;
  }
  return true;
}

const nullishInRange = (value: unknown, min: number, max: number) =>
  value === null || (typeof value === 'number' && value >= min && value <= max);
const nullishCount = (value: unknown) =>
  value === null || (Number.isSafeInteger(value) && (value as number) >= 1);

/**
 * @returns the body as zod would output it (zod's defaults are filled in on `raw` itself, which
 *   the caller has just parsed), or null when it is not the common shape.
 *
 * @example
 * const body = chatBodyFastPath(raw) ?? validateBody(zCreateChatCompletionRequest, raw);
 */
export function chatBodyFastPath(raw: unknown): ChatBody | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const body = raw as Record<string, unknown>;
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
        if (!plainMessages(value)) return null;
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
        if (!nullishCount(value)) return null;
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

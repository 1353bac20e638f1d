/**
 * A messages-format body (create and count_tokens) checked against the spec. A content block's
 * kind picks its schema: a listed kind (`text`, `image`, …) is checked strictly, any other is the
 * vendor's and passes (spec: VendorContentBlock). zod tries every kind on a block and, when the
 * block is of a listed kind that fails its own checks, reports the vendor kind's refusal of the
 * `type` instead (the one check it can go past); that block is checked again against its own
 * kind here, so the 400 names what is wrong with it (`messages.0.content.1.text`).
 */
import {
  zImageBlock,
  zMessagesTextBlock,
  zRedactedThinkingBlock,
  zThinkingBlock,
  zToolResultBlock,
  zToolUseBlock,
} from '@modelgate/core/zod';
import type { z } from 'zod';
import { badRequest } from '../errors/api-error.js';
import { issueToApiError, valueAt } from '../errors/validate.js';
import { inClientOrder } from './client-order.js';

const KIND_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  text: zMessagesTextBlock,
  image: zImageBlock,
  tool_use: zToolUseBlock,
  tool_result: zToolResultBlock,
  thinking: zThinkingBlock,
  redacted_thinking: zRedactedThinkingBlock,
};

/** The first issue of a block of a listed kind checked against its own schema, if it fails. */
function listedKindIssue(issue: z.core.$ZodIssue, raw: unknown): z.core.$ZodIssue | null {
  const { path } = issue;
  if (issue.code !== 'invalid_format' || path.at(-1) !== 'type' || path.at(-3) !== 'content') {
    return null;
  }
  const blockPath = path.slice(0, -1);
  const block = valueAt(raw, blockPath) as { type?: unknown } | undefined;
  const schema = typeof block?.type === 'string' ? KIND_SCHEMAS[block.type] : undefined;
  const own = schema?.safeParse(block);
  const first = own && !own.success ? own.error.issues[0] : undefined;
  return first ? { ...first, path: [...blockPath, ...first.path] } : null;
}

/**
 * @returns the body as the schema outputs it, its objects' keys in the client's order.
 *
 * @example
 * const body = validateMessagesBody(zCreateMessageRequest, raw);
 */
export function validateMessagesBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return inClientOrder(result.data, raw);
  const issue = result.error.issues[0];
  if (!issue) throw badRequest('Invalid request body.');
  throw issueToApiError(listedKindIssue(issue, raw) ?? issue, raw);
}

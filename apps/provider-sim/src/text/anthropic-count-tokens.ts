// `POST /v1/messages/count_tokens`: the input tokens of a Messages request, counted exactly as
// `POST /v1/messages` counts them for its usage. Its body is the create body without the fields
// that only shape the answer (max_tokens, stream, sampling); any of those is an extra input, as
// the real API says (checked against @anthropic-ai/sdk 1.14.0 MessageCountTokensParams).
import type { Ctx } from '../context.js';
import { badRequest, isRecord } from '../errors.js';
import { applyLatency, sendJson } from '../respond.js';
import { checkHeaders } from './anthropic-headers.js';
import { parse } from './anthropic-request.js';

const COUNT_FIELDS = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'cache_control',
  'speed',
  'mcp_servers',
  'context_management',
]);

export async function countMessageTokens(ctx: Ctx): Promise<void> {
  checkHeaders(ctx);
  const body = ctx.body;
  if (!isRecord(body)) throw badRequest('Request body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!COUNT_FIELDS.has(key)) throw badRequest(`${key}: Extra inputs are not permitted`);
  }
  // The create checks with a stand-in max_tokens: the same errors, the same count.
  const parsed = parse({ ...body, max_tokens: 1 });
  await applyLatency(ctx);
  sendJson(ctx, 200, { input_tokens: parsed.inputTokens });
}

// The headers every Anthropic route checks: the API key and `anthropic-version`.
import type { Ctx } from '../context.js';
import { HttpError } from '../errors.js';

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

export function checkHeaders(ctx: Ctx): void {
  const value = apiKeyOf(ctx);
  if (!value) throw new HttpError({ status: 401, message: 'x-api-key header is required' });
  if (!ctx.sim.keyAccepted(value))
    throw new HttpError({ status: 401, message: 'invalid x-api-key' });
  if (!ctx.req.headers['anthropic-version']) {
    throw new HttpError({ status: 400, message: 'anthropic-version: header is required' });
  }
}

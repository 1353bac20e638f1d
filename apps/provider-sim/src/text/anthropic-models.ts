// `GET /v1/models` and `GET /v1/models/{id}`: the configured model list, paginated as the real API
// paginates it.
import type { Ctx } from '../context.js';
import { HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import { checkHeaders } from './anthropic-headers.js';
import { anthropicModelObject } from './models.js';

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
export function listModels(ctx: Ctx): void {
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

export function getModel(ctx: Ctx): void {
  checkHeaders(ctx);
  const id = ctx.params[0]!;
  if (id.startsWith('unknown-')) throw new HttpError({ status: 404, message: `model: ${id}` });
  sendJson(ctx, 200, anthropicModelObject(id));
}

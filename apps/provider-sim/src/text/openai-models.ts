// `GET /models` and `GET /models/{id}`: the configured model list, each id owned as the real list
// says.
import type { Ctx } from '../context.js';
import { HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import { checkAuth } from './openai-request.js';

const MODEL_CREATED = 1715367049;

/** Who owns a model, as the real list says: the organisation for a fine-tune, else `system`. */
function ownerOf(id: string): string {
  if (id.startsWith('ft:')) return id.split(':')[2] || 'user';
  return 'system';
}

function modelObject(id: string) {
  return { id, object: 'model', created: MODEL_CREATED, owned_by: ownerOf(id) };
}

export function listModels(ctx: Ctx): void {
  checkAuth(ctx);
  sendJson(ctx, 200, { object: 'list', data: ctx.sim.options.textModels.openai.map(modelObject) });
}

export function getModel(ctx: Ctx): void {
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

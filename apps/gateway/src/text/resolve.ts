/**
 * Stage 1: which model the request names, and whether its key may use it. Nothing is held yet,
 * so a refusal here costs the key nothing.
 */
import { forbidden } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import type { TextModel, TextModelCatalog } from '../models/catalog.js';
import { unknownModel } from '../models/model-kinds.js';
import type { TextRequest } from './request.js';

/**
 * A known id resolves from the catalogue's in-memory map; only an id it does not know waits for
 * it to ask the providers again (pass-through mode), so a model that appeared upstream since the
 * last refresh is found and an unknown one is refused before anything is held.
 *
 * @throws ApiError 404 `model_not_found` for a model the gateway does not route (naming the
 *   endpoint of an image, video or embedding model), 403
 *   `model_not_allowed` for one outside the key's allow-list.
 *
 * @example
 * const model = await resolveModel(catalog, request, key); // catalog entry with price and deployments
 */
export async function resolveModel(
  catalog: TextModelCatalog,
  request: TextRequest,
  key: AuthKey,
): Promise<TextModel> {
  const id = request.body.model;
  const model = catalog.resolve(id) ?? (await catalog.resolveFresh(id));
  if (!model) {
    throw unknownModel(id, 'text');
  }
  if (key.models !== null && !key.models.includes(model.id)) {
    throw forbidden(`This key may not use the model "${model.id}".`, 'model_not_allowed', 'model');
  }
  return model;
}

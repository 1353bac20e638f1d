/**
 * Stage 1: which model the request names, and whether its key may use it. Nothing is held yet,
 * so a refusal here costs the key nothing.
 */
import { ApiError, notFound } from '../http/errors.js';
import type { AuthKey } from '../keys/keys.js';
import type { TextModel, TextModelCatalog } from '../models/catalog.js';
import type { TextRequest } from './request.js';

/**
 * @throws ApiError 404 `model_not_found` for a model the gateway does not route, 403
 *   `model_not_allowed` for one outside the key's allow-list.
 *
 * @example
 * const model = resolveModel(catalog, request, key); // catalog entry with price and deployments
 */
export function resolveModel(
  catalog: TextModelCatalog,
  request: TextRequest,
  key: AuthKey,
): TextModel {
  const model = catalog.resolve(request.body.model);
  if (!model) {
    throw notFound(`The model "${request.body.model}" does not exist.`, 'model_not_found', 'model');
  }
  if (key.models !== null && !key.models.includes(model.id)) {
    throw new ApiError(403, 'permission_error', `This key may not use the model "${model.id}".`, {
      code: 'model_not_allowed',
      param: 'model',
    });
  }
  return model;
}

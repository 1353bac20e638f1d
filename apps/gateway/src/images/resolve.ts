/**
 * Stage 1: which image model the request names, and whether its key may use it. Nothing is held
 * yet, so a refusal here costs the key nothing.
 */
import { forbidden } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { type IsTextModel, unknownModel } from '../models/model-kinds.js';
import type { ImageCatalog, ImageModel } from './catalog.js';

/**
 * @throws ApiError 404 `model_not_found` for a model this gateway does not serve as an image
 *   model, 403 `model_not_allowed` for one outside the key's allow-list.
 * @example
 * const model = resolveImageModel(catalog, 'dall-e-3', key);
 */
export function resolveImageModel(
  catalog: ImageCatalog,
  id: string,
  key: AuthKey,
  isText?: IsTextModel,
): ImageModel {
  const model = catalog.resolve(id);
  if (!model) {
    throw unknownModel(id, 'image', isText);
  }
  if (key.models !== null && !key.models.includes(id)) {
    throw forbidden(`This key may not use the model "${id}".`, 'model_not_allowed', 'model');
  }
  return model;
}

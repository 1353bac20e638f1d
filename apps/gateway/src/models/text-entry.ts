/** A text model's entry in GET /v1/models: the OpenAI list shape, `type: text` and its prices. */
import type { TextModelPrice } from '@modelgate/core';
import type { TextPrice } from './defaults.js';
import type { ModelListEntry, TextModel } from './types.js';

/** The price as the API spells it (credits per million tokens). */
export function priceEntry(price: TextPrice): TextModelPrice {
  return {
    input_per_million: price.inputPerMillion,
    output_per_million: price.outputPerMillion,
    cached_input_per_million: price.cachedInputPerMillion,
    cache_write_5m_per_million: price.cacheWrite5mPerMillion,
    cache_write_1h_per_million: price.cacheWrite1hPerMillion,
  };
}

/**
 * @example
 * textListEntry(model, 1763683200); // { id, object: 'model', created, owned_by, type: 'text', text: { price } }
 */
export function textListEntry(model: TextModel, created: number): ModelListEntry {
  return {
    id: model.id,
    object: 'model',
    created,
    owned_by: model.ownedBy,
    type: 'text',
    text: { price: priceEntry(model.price) },
  };
}

/**
 * Text prices are credits per million tokens; since 1 credit = 1,000,000 quota units, that is
 * exactly units per token. Fractions round up so a request never costs less than its price.
 */
import type { TextModel, TextPrice } from '../models/catalog.js';
import type { TextRequest } from './request.js';

/**
 * @example
 * costUnits({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 1000, 100); // 210
 */
export function costUnits(price: TextPrice, inputTokens: number, outputTokens: number): number {
  const units = inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion;
  // Guard float noise (0.1 + 0.2) before rounding up.
  return Math.max(0, Math.ceil(Math.round(units * 1e6) / 1e6));
}

/** Completions' documented default for `max_tokens`. */
const COMPLETION_DEFAULT_MAX_TOKENS = 16;

/**
 * The output tokens a request's quota reservation covers: the `max_tokens` it asks for (or the
 * format's default), but never more than the model can produce. The model's limit bounds the
 * reservation whatever the client sends, so it always fits the quota columns (a request for 2^53
 * tokens would otherwise reserve more units than PostgreSQL's bigint holds); settlement charges
 * what was really produced either way.
 *
 * @example
 * reservedOutputTokens({ format: 'chat', body: { model, messages, max_tokens: 2 ** 53 - 1 } }, { maxOutputTokens: 4096 }); // 4096
 * reservedOutputTokens({ format: 'completion', body: { model, prompt: 'Hi' } }, { maxOutputTokens: 4096 }); // 16
 */
export function reservedOutputTokens(
  request: TextRequest,
  model: Pick<TextModel, 'maxOutputTokens'>,
): number {
  const requested =
    request.format === 'messages'
      ? request.body.max_tokens
      : request.format === 'responses'
        ? request.body.max_output_tokens
        : request.format === 'completion'
          ? (request.body.max_tokens ?? COMPLETION_DEFAULT_MAX_TOKENS)
          : (request.body.max_completion_tokens ?? request.body.max_tokens);
  return Math.min(requested ?? model.maxOutputTokens, model.maxOutputTokens);
}

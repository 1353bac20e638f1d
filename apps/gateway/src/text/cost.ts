/**
 * Text prices are credits per million tokens; since 1 credit = 1,000,000 quota units, that is
 * exactly units per token. Fractions round up so a request never costs less than its price.
 */
import type { TextModel, TextPrice } from '../models/catalog.js';
import { plainUsage, type TokenUsage } from '../translate/usage.js';
import type { TextRequest } from './request.js';

/**
 * The cost of one request's usage at the model's prices: each kind of token at its own price,
 * as the providers bill it (plain input, cache reads, 5-minute and 1-hour cache writes, output).
 *
 * @example
 * const price = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3,
 *   cacheWrite5mPerMillion: 3.75, cacheWrite1hPerMillion: 6 };
 * costUnits(price, { inputTokens: 10, cacheReadTokens: 20_000, cacheWrite5mTokens: 0,
 *   cacheWrite1hTokens: 0, outputTokens: 100 }); // 30 + 6_000 + 1_500 = 7_530
 */
export function costUnits(price: TextPrice, usage: TokenUsage): number {
  const units =
    usage.inputTokens * price.inputPerMillion +
    usage.cacheReadTokens * price.cachedInputPerMillion +
    usage.cacheWrite5mTokens * price.cacheWrite5mPerMillion +
    usage.cacheWrite1hTokens * price.cacheWrite1hPerMillion +
    usage.outputTokens * price.outputPerMillion;
  // Guard float noise (0.1 + 0.2) before rounding up.
  return Math.max(0, Math.ceil(Math.round(units * 1e6) / 1e6));
}

/**
 * What a request's quota reservation holds: the estimated input at the dearest input price (a
 * whole prompt written to a 1-hour cache costs 2 × input at Anthropic) plus the output reserved.
 *
 * @example
 * reservationUnits({ inputPerMillion: 1, outputPerMillion: 4, cachedInputPerMillion: 0.1,
 *   cacheWrite5mPerMillion: 1.25, cacheWrite1hPerMillion: 2 }, 1000, 100); // 2_400
 */
export function reservationUnits(
  price: TextPrice,
  inputTokens: number,
  outputTokens: number,
): number {
  const dearest = Math.max(
    price.inputPerMillion,
    price.cachedInputPerMillion,
    price.cacheWrite5mPerMillion,
    price.cacheWrite1hPerMillion,
  );
  return costUnits({ ...price, inputPerMillion: dearest }, plainUsage(inputTokens, outputTokens));
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

/**
 * Text prices are credits per million tokens; since 1 credit = 1,000,000 quota units, that is
 * exactly units per token. Fractions round up so a request never costs less than its price.
 */
import type { TextPrice } from '../models/catalog.js';

/**
 * @example
 * costUnits({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 1000, 100); // 210
 */
export function costUnits(price: TextPrice, inputTokens: number, outputTokens: number): number {
  const units = inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion;
  // Guard float noise (0.1 + 0.2) before rounding up.
  return Math.max(0, Math.ceil(Math.round(units * 1e6) / 1e6));
}

/** Prices and model ids used where no `models` section says otherwise. */
import type { ProviderKind } from '../providers/text/index.js';

/**
 * Price in credits per million tokens (= quota units per token, since 1 credit = 1e6 units), one
 * per kind of token the providers bill apart (models/cache-prices.ts derives the cache prices).
 */
export interface TextPrice {
  inputPerMillion: number;
  /** Output tokens, reasoning included. */
  outputPerMillion: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInputPerMillion: number;
  /** Input tokens written to the prompt cache with the 5-minute lifetime. */
  cacheWrite5mPerMillion: number;
  /** Input tokens written to the prompt cache with the 1-hour lifetime. */
  cacheWrite1hPerMillion: number;
}

/**
 * Input and output price of pass-through and demo models, credits per million tokens; their cache
 * prices follow from it as their provider prices the cache (models/cache-prices.ts).
 */
export const DEFAULT_TEXT_PRICE: Pick<TextPrice, 'inputPerMillion' | 'outputPerMillion'> = {
  inputPerMillion: 1,
  outputPerMillion: 4,
};
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/**
 * Well-known models by provider kind: all that demo mode serves, and what pass-through mode
 * serves for a provider whose own list could not be fetched.
 */
export const PASSTHROUGH_MODELS: Record<ProviderKind, readonly string[]> = {
  openai: [
    'gpt-4o-mini',
    'gpt-4o',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'gpt-5',
    'gpt-5-mini',
    'gpt-5-nano',
    'o3-mini',
    'o4-mini',
  ],
  anthropic: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
};

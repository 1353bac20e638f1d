/** Prices and model ids used where no `models` section says otherwise. */
import type { ProviderKind } from '../providers/text/index.js';

/** Price in credits per million tokens (= quota units per token, since 1 credit = 1e6 units). */
export interface TextPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Price of pass-through and demo models, credits per million tokens. */
export const DEFAULT_TEXT_PRICE: TextPrice = { inputPerMillion: 1, outputPerMillion: 4 };
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

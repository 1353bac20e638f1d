/**
 * Prompt-cache prices, derived the way each provider derives them from a model's input price.
 *
 * Anthropic prices every Claude model's cache the same way (docs.claude.com, "Prompt caching" and
 * "Pricing", checked Nov 2026): a cache read costs 0.1 × the input price, a write 1.25 × with the
 * default 5-minute lifetime and 2 × with the 1-hour lifetime.
 *
 * OpenAI charges nothing extra to write its cache and publishes a cached-input price per model
 * (platform.openai.com/docs/pricing, standard tier, USD per million tokens, checked Nov 2026): the
 * table below keeps the published input and cached-input figures, and a model's cached price is
 * its own input price times their ratio, so a configured input price keeps the provider's discount.
 * An OpenAI-format model not in the table gets no discount (its cached input at the input price):
 * charging what a model's provider has not published would be a guess; the config can set it.
 */
import type { ProviderKind } from '../providers/text/index.js';
import type { TextPrice } from './defaults.js';

/** Input and output prices only: what a `models` entry must give and the defaults carry. */
export type BaseTextPrice = Pick<TextPrice, 'inputPerMillion' | 'outputPerMillion'>;

/** Anthropic's multipliers of the input price, for every Claude model. */
export const ANTHROPIC_CACHE_MULTIPLIERS = { read: 0.1, write5m: 1.25, write1h: 2 } as const;

/** OpenAI's published [input, cached input] prices, USD per million tokens. */
const OPENAI_PUBLISHED: Record<string, readonly [input: number, cachedInput: number]> = {
  'gpt-4o': [2.5, 1.25],
  'gpt-4o-mini': [0.15, 0.075],
  'gpt-4.1': [2, 0.5],
  'gpt-4.1-mini': [0.4, 0.1],
  'gpt-4.1-nano': [0.1, 0.025],
  'gpt-5': [1.25, 0.125],
  'gpt-5-mini': [0.25, 0.025],
  'gpt-5-nano': [0.05, 0.005],
  o1: [15, 7.5],
  o3: [2, 0.5],
  'o3-mini': [1.1, 0.55],
  'o4-mini': [1.1, 0.275],
};

/** The published entry for a model id or a dated snapshot of it (`gpt-4o-mini-2024-07-18`). */
function openAiPublished(model: string): readonly [number, number] | undefined {
  const names = Object.keys(OPENAI_PUBLISHED)
    .filter((name) => model === name || model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length);
  return names[0] === undefined ? undefined : OPENAI_PUBLISHED[names[0]];
}

/** Explicit cache prices from the config; each one given replaces the derived default. */
export interface CachePriceOverrides {
  cachedInputPerMillion?: number | undefined;
  cacheWrite5mPerMillion?: number | undefined;
  cacheWrite1hPerMillion?: number | undefined;
}

/** A price where every input token costs the same (no prompt cache: embeddings). */
export function uniformPrice(inputPerMillion: number, outputPerMillion: number): TextPrice {
  return {
    inputPerMillion,
    outputPerMillion,
    cachedInputPerMillion: inputPerMillion,
    cacheWrite5mPerMillion: inputPerMillion,
    cacheWrite1hPerMillion: inputPerMillion,
  };
}

/** Rounds away float noise (0.15 × 0.1 = 0.015000000000000001). */
const tidy = (value: number) => Math.round(value * 1e9) / 1e9;

/**
 * A text model's full price: its input and output prices, and cache prices derived as the
 * upstream's provider prices them, unless the config gives them.
 *
 * @example
 * textPrice({ inputPerMillion: 3, outputPerMillion: 15 }, 'anthropic', 'claude-sonnet-4-5');
 * // cached 0.3, 5-minute write 3.75, 1-hour write 6
 * textPrice({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 'openai', 'gpt-4o-mini');
 * // cached 0.075, writes at the input price 0.15
 */
export function textPrice(
  base: BaseTextPrice,
  kind: ProviderKind,
  upstreamModel: string,
  overrides: CachePriceOverrides = {},
): TextPrice {
  const input = base.inputPerMillion;
  const derived =
    kind === 'anthropic'
      ? {
          cachedInputPerMillion: tidy(input * ANTHROPIC_CACHE_MULTIPLIERS.read),
          cacheWrite5mPerMillion: tidy(input * ANTHROPIC_CACHE_MULTIPLIERS.write5m),
          cacheWrite1hPerMillion: tidy(input * ANTHROPIC_CACHE_MULTIPLIERS.write1h),
        }
      : openAiCachePrices(input, upstreamModel);
  return {
    ...base,
    cachedInputPerMillion: overrides.cachedInputPerMillion ?? derived.cachedInputPerMillion,
    cacheWrite5mPerMillion: overrides.cacheWrite5mPerMillion ?? derived.cacheWrite5mPerMillion,
    cacheWrite1hPerMillion: overrides.cacheWrite1hPerMillion ?? derived.cacheWrite1hPerMillion,
  };
}

function openAiCachePrices(input: number, upstreamModel: string) {
  const published = openAiPublished(upstreamModel);
  const cached = published ? tidy((input * published[1]) / published[0]) : input;
  return {
    cachedInputPerMillion: cached,
    cacheWrite5mPerMillion: input,
    cacheWrite1hPerMillion: input,
  };
}

import { describe, expect, it } from 'vitest';
import { textPrice, uniformPrice } from '../../src/models/cache-prices.js';
import { costUnits, reservationUnits } from '../../src/text/cost.js';
import { anthropicUsageFromChat, chatUsageFromAnthropic } from '../../src/translate/response.js';
import {
  plainUsage,
  type TokenUsage,
  usageFromAnthropic,
  usageFromOpenAi,
} from '../../src/translate/usage.js';

// Claude Sonnet 4.5's published prices in credits per million tokens (1 credit = 1 USD here).
const sonnet = textPrice(
  { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic',
  'claude-sonnet-4-5',
);
const mini = textPrice({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 'openai', 'gpt-4o-mini');

const usage = (fields: Partial<TokenUsage>): TokenUsage => ({ ...plainUsage(0, 0), ...fields });

describe('cache prices', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', 3, [0.3, 3.75, 6]],
    ['anthropic', 'claude-haiku-4-5', 1, [0.1, 1.25, 2]],
    ['openai', 'gpt-4o-mini', 0.15, [0.075, 0.15, 0.15]],
    ['openai', 'gpt-4o-mini-2024-07-18', 0.15, [0.075, 0.15, 0.15]],
    ['openai', 'gpt-4o', 2.5, [1.25, 2.5, 2.5]],
    ['openai', 'gpt-4.1-nano', 0.1, [0.025, 0.1, 0.1]],
    ['openai', 'gpt-5-mini', 0.25, [0.025, 0.25, 0.25]],
    ['openai', 'o4-mini', 1.1, [0.275, 1.1, 1.1]],
    ['openai', 'llama-3', 0.5, [0.5, 0.5, 0.5]],
  ] as const)(
    '%s %s at input %s: cached, 5m write, 1h write = %j',
    (kind, model, input, expected) => {
      const price = textPrice({ inputPerMillion: input, outputPerMillion: 1 }, kind, model);
      expect([
        price.cachedInputPerMillion,
        price.cacheWrite5mPerMillion,
        price.cacheWrite1hPerMillion,
      ]).toEqual(expected);
    },
  );

  it('a configured cache price replaces the derived one, the others stay derived', () => {
    const price = textPrice({ inputPerMillion: 3, outputPerMillion: 15 }, 'anthropic', 'x', {
      cacheWrite1hPerMillion: 5,
    });
    expect(price).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.3,
      cacheWrite5mPerMillion: 3.75,
      cacheWrite1hPerMillion: 5,
    });
  });
});

describe('costUnits', () => {
  // The measurement: the same 20,010 input tokens reported three ways (and the 1-hour
  // write too) must cost four different amounts, each as Anthropic bills it.
  it.each([
    ['plain input', usage({ inputTokens: 20_010 }), 60_030], // 20,010 × 3
    ['cache reads', usage({ cacheReadTokens: 20_010 }), 6_003], // 20,010 × 0.3
    ['5-minute cache writes', usage({ cacheWrite5mTokens: 20_010 }), 75_038], // 75,037.5 rounded up
    ['1-hour cache writes', usage({ cacheWrite1hTokens: 20_010 }), 120_060], // 20,010 × 6
    [
      'a Claude Code turn: a little input, mostly reads, some writes, output',
      usage({
        inputTokens: 12,
        cacheReadTokens: 18_000,
        cacheWrite5mTokens: 1_500,
        cacheWrite1hTokens: 500,
        outputTokens: 300,
      }),
      12 * 3 + 18_000 * 0.3 + 1_500 * 3.75 + 500 * 6 + 300 * 15, // 36 + 5400 + 5625 + 3000 + 4500
    ],
  ])('Claude Sonnet 4.5, %s', (_name, tokens, expected) => {
    expect(costUnits(sonnet, tokens)).toBe(expected);
  });

  it.each([
    ['plain input', usage({ inputTokens: 20_010 }), 3_002], // 3,001.5 rounded up
    ['cached input', usage({ cacheReadTokens: 20_010 }), 1_501], // 1,500.75 rounded up
    ['output (reasoning included)', usage({ outputTokens: 1_000 }), 600],
  ])('gpt-4o-mini, %s', (_name, tokens, expected) => {
    expect(costUnits(mini, tokens)).toBe(expected);
  });

  it('the reservation prices the estimate at the dearest input price, so it covers any split', () => {
    expect(reservationUnits(sonnet, 20_010, 0)).toBe(120_060);
    expect(reservationUnits(uniformPrice(1, 4), 1_000, 100)).toBe(1_400);
  });
});

describe('usage normalisation', () => {
  it('OpenAI: cached tokens come out of prompt_tokens; reasoning stays in the output', () => {
    expect(
      usageFromOpenAi({
        prompt_tokens: 2_048,
        completion_tokens: 500,
        total_tokens: 2_548,
        prompt_tokens_details: { cached_tokens: 1_920 },
        completion_tokens_details: { reasoning_tokens: 400 },
      }),
    ).toEqual(usage({ inputTokens: 128, cacheReadTokens: 1_920, outputTokens: 500 }));
  });

  it('Anthropic: writes split by lifetime; without the split every write is 5-minute', () => {
    expect(
      usageFromAnthropic({
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 2_000,
        cache_creation_input_tokens: 300,
        cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      }),
    ).toEqual(
      usage({
        inputTokens: 10,
        cacheReadTokens: 2_000,
        cacheWrite5mTokens: 100,
        cacheWrite1hTokens: 200,
        outputTokens: 5,
      }),
    );
    expect(
      usageFromAnthropic({ input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 300 }),
    ).toEqual(usage({ inputTokens: 1, cacheWrite5mTokens: 300, outputTokens: 2 }));
  });

  it('Anthropic → chat counts as OpenAI does, and chat → Anthropic splits the reads back', () => {
    const chat = chatUsageFromAnthropic({
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 2_000,
      cache_creation_input_tokens: 300,
    });
    expect(chat).toEqual({
      prompt_tokens: 2_310,
      completion_tokens: 5,
      total_tokens: 2_315,
      prompt_tokens_details: { cached_tokens: 2_000 },
    });
    expect(anthropicUsageFromChat(chat)).toEqual({
      input_tokens: 310,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2_000,
    });
  });
});

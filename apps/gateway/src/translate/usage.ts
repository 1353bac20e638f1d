/**
 * One request's token usage, normalised across the vendors' shapes so one function prices it
 * (cost.ts). Input is split the way the providers bill it: plain input, prompt-cache reads, and
 * prompt-cache writes by lifetime. Output includes reasoning tokens: both vendors count them
 * inside the output figure (`completion_tokens`, Responses `output_tokens`) and bill them as output.
 */
import type { ResponseUsage as ResponsesApiUsage } from '@modelgate/core';
import type { MeteredUsage } from './stream-base.js';
import type { AnthropicUsage, OpenAiUsage } from './wire.js';

export interface TokenUsage {
  /** Input tokens billed at the input price (no cache reads, no cache writes). */
  inputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache with the 5-minute lifetime. */
  cacheWrite5mTokens: number;
  /** Input tokens written to the prompt cache with the 1-hour lifetime. */
  cacheWrite1hTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
}

/** Usage with nothing cached: what a tokenizer count or an estimate gives. */
export function plainUsage(inputTokens: number, outputTokens: number): TokenUsage {
  return {
    inputTokens,
    cacheReadTokens: 0,
    cacheWrite5mTokens: 0,
    cacheWrite1hTokens: 0,
    outputTokens,
  };
}

/** Every input token, however it is billed (for the tokens-per-minute limit and chat's prompt_tokens). */
export function totalInputTokens(usage: TokenUsage): number {
  return (
    usage.inputTokens + usage.cacheReadTokens + usage.cacheWrite5mTokens + usage.cacheWrite1hTokens
  );
}

const count = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * OpenAI usage: `prompt_tokens` includes `prompt_tokens_details.cached_tokens`; OpenAI charges
 * nothing extra to write its cache, so there are no write tokens.
 *
 * @example
 * usageFromOpenAi({ prompt_tokens: 2048, completion_tokens: 10, total_tokens: 2058,
 *   prompt_tokens_details: { cached_tokens: 1920 } }); // input 128, cache reads 1920, output 10
 */
export function usageFromOpenAi(usage: Partial<OpenAiUsage>): TokenUsage {
  const prompt = count(usage.prompt_tokens);
  const cached = Math.min(prompt, count(usage.prompt_tokens_details?.cached_tokens));
  return {
    ...plainUsage(prompt - cached, count(usage.completion_tokens)),
    cacheReadTokens: cached,
  };
}

/**
 * Anthropic usage: `input_tokens` excludes the cache; `cache_creation_input_tokens` is split by
 * lifetime in `cache_creation` (when that breakdown is absent, as in older API versions, every
 * write has the default 5-minute lifetime).
 *
 * @example
 * usageFromAnthropic({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2000,
 *   cache_creation_input_tokens: 300 }); // input 10, reads 2000, 5m writes 300, output 5
 */
export function usageFromAnthropic(usage: Partial<AnthropicUsage>): TokenUsage {
  const written = count(usage.cache_creation_input_tokens);
  const split = usage.cache_creation;
  const oneHour = split ? Math.min(written, count(split.ephemeral_1h_input_tokens)) : 0;
  return {
    inputTokens: count(usage.input_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWrite5mTokens: written - oneHour,
    cacheWrite1hTokens: oneHour,
    outputTokens: count(usage.output_tokens),
  };
}

/**
 * OpenAI Responses API usage: `input_tokens` includes `input_tokens_details.cached_tokens`, as
 * chat's `prompt_tokens` does; reasoning is inside `output_tokens`.
 */
export function usageFromResponses(usage: Partial<ResponsesApiUsage>): TokenUsage {
  const input = count(usage.input_tokens);
  const cached = Math.min(input, count(usage.input_tokens_details?.cached_tokens));
  return { ...plainUsage(input - cached, count(usage.output_tokens)), cacheReadTokens: cached };
}

/**
 * What a stream meter keeps from the upstream's usage: input or output is null while the upstream
 * has not reported it (then the relay counts it instead).
 */
export function meteredFromAnthropic(usage: Partial<AnthropicUsage>): MeteredUsage {
  const tokens = usageFromAnthropic(usage);
  return {
    ...tokens,
    inputTokens: usage.input_tokens == null ? null : tokens.inputTokens,
    outputTokens: usage.output_tokens == null ? null : tokens.outputTokens,
  };
}

/** {@link meteredFromAnthropic} for an OpenAI usage object. */
export function meteredFromOpenAi(usage: Partial<OpenAiUsage>): MeteredUsage {
  const tokens = usageFromOpenAi(usage);
  return {
    ...tokens,
    inputTokens: usage.prompt_tokens == null ? null : tokens.inputTokens,
    outputTokens: usage.completion_tokens == null ? null : tokens.outputTokens,
  };
}

/** {@link meteredFromAnthropic} for a Responses API usage object. */
export function meteredFromResponses(usage: Partial<ResponsesApiUsage>): MeteredUsage {
  const tokens = usageFromResponses(usage);
  return {
    ...tokens,
    inputTokens: usage.input_tokens == null ? null : tokens.inputTokens,
    outputTokens: usage.output_tokens == null ? null : tokens.outputTokens,
  };
}

/** Anthropic stream usage so far: message_start's, then each message_delta's figures over it. */
export function mergeAnthropicUsage(
  seen: Partial<AnthropicUsage>,
  next: Partial<AnthropicUsage> | null | undefined,
): Partial<AnthropicUsage> {
  if (!next) return seen;
  const merged: Partial<AnthropicUsage> = { ...seen };
  for (const [field, value] of Object.entries(next)) if (value != null) merged[field] = value;
  return merged;
}

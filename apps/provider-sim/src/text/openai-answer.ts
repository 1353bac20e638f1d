// The envelope OpenAI's answers share: the fingerprint, the rate-limit headers, chat usage and the
// non-streamed `chat.completion` around its choices.
import type { Ctx } from '../context.js';
import { sendJson } from '../respond.js';
import { newId } from './common.js';

/** Static rate-limit headers, as the real API sends on every answer. */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
  'x-ratelimit-limit-tokens': '30000000',
  'x-ratelimit-remaining-tokens': '29999000',
  'x-ratelimit-reset-tokens': '0s',
};

/** The `system_fingerprint` of every answer: one simulated backend configuration. */
export const FINGERPRINT = 'fp_sim0001';

/** What every object of one answer repeats: its id, creation second and model. */
export interface AnswerHead {
  id: string;
  created: number;
  model: string;
}

/** The head of a new answer: `prefix` names its kind (`chatcmpl-`, `cmpl-`). */
export function answerHead(prefix: string, model: string): AnswerHead {
  return { id: newId(prefix), created: Math.floor(Date.now() / 1000), model };
}

export type ChatUsage = ReturnType<typeof usageOf>;

/** A prompt's tokens, and how many of them OpenAI's prompt cache served (prompt-cache.ts). */
export interface PromptTokens {
  total: number;
  cached: number;
}

/** Chat usage as `openai`'s `CompletionUsage` types it: cached tokens are inside `prompt_tokens`. */
export function usageOf(prompt: PromptTokens, completionTokens: number) {
  return {
    prompt_tokens: prompt.total,
    completion_tokens: completionTokens,
    total_tokens: prompt.total + completionTokens,
    prompt_tokens_details: { cached_tokens: prompt.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** A non-streamed `chat.completion`: the envelope every chat answer shares, around its choices. */
export function sendChatCompletion(
  ctx: Ctx,
  head: AnswerHead,
  choices: unknown[],
  usage: ChatUsage,
): void {
  sendJson(
    ctx,
    200,
    {
      id: head.id,
      object: 'chat.completion',
      created: head.created,
      model: head.model,
      choices,
      usage,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
    },
    RATE_LIMIT_HEADERS,
  );
}

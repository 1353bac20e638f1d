/**
 * Reasoning across the two formats: the messages format's `thinking` (a token budget, or
 * `adaptive`) and `output_config.effort`, the chat format's `reasoning_effort` (a level). The table
 * is the same both ways, so a level survives a round trip (docs/formats.md, "Reasoning"):
 *
 *   reasoning_effort   thinking budget_tokens     budget → reasoning_effort
 *   minimal, low       1,024 (Anthropic's least)  under 4,096
 *   medium             4,096                      4,096 to 16,383
 *   high               16,384                     16,384 to 32,767
 *   xhigh              32,768                     32,768 and more
 *   none               (thinking stays off)
 */
import type { ChatRequest, MessagesRequest } from './wire.js';

/** Anthropic refuses a thinking budget under 1,024 tokens. */
export const MIN_THINKING_BUDGET = 1_024;

const BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  minimal: MIN_THINKING_BUDGET,
  low: MIN_THINKING_BUDGET,
  medium: 4_096,
  high: 16_384,
  xhigh: 32_768,
};

/** Anthropic's `output_config.effort` levels as chat levels (`max` has no chat level above xhigh). */
const CHAT_EFFORT: Readonly<Record<string, string>> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'xhigh',
};

/** A thinking budget as a chat reasoning level. */
function effortOfBudget(budget: number): string {
  if (budget < BUDGET_BY_EFFORT.medium!) return 'low';
  if (budget < BUDGET_BY_EFFORT.high!) return 'medium';
  if (budget < BUDGET_BY_EFFORT.xhigh!) return 'high';
  return 'xhigh';
}

/** What a messages request's reasoning fields become on a chat upstream. */
export interface ChatReasoning {
  /** Absent: the upstream's default (thinking off, or adaptive without an effort). */
  effort?: string;
  /** Fields that did not map (`thinking`, `output_config.format`, …), for the dropped list. */
  dropped: string[];
}

/**
 * @example
 * chatReasoningOf({ model, max_tokens: 8000, messages, thinking: { type: 'enabled', budget_tokens: 2048 } });
 * // { effort: 'low', dropped: [] }
 * chatReasoningOf({ model, max_tokens: 8000, messages, thinking: { type: 'adaptive' }, output_config: { effort: 'max' } });
 * // { effort: 'xhigh', dropped: [] }
 */
export function chatReasoningOf(request: MessagesRequest): ChatReasoning {
  const dropped: string[] = [];
  const config = request.output_config;
  let effort: string | undefined;
  if (config) {
    for (const [key, value] of Object.entries(config)) {
      if (key !== 'effort' && value !== null && value !== undefined)
        dropped.push(`output_config.${key}`);
    }
    if (typeof config.effort === 'string') {
      effort = CHAT_EFFORT[config.effort];
      if (effort === undefined) dropped.push('output_config.effort');
    }
  }
  const thinking = request.thinking;
  if (thinking) {
    if (thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number') {
      effort ??= effortOfBudget(thinking.budget_tokens);
    } else if (thinking.type === 'disabled') {
      effort = undefined;
    } else if (thinking.type !== 'adaptive') dropped.push('thinking');
  }
  return effort === undefined ? { dropped } : { effort, dropped };
}

/** What a chat request's `reasoning_effort` becomes on a messages upstream. */
export interface MessagesReasoning {
  thinking?: { type: 'enabled'; budget_tokens: number };
  /** Fields left out because thinking is on (or could not be), for the dropped list. */
  dropped: string[];
}

/**
 * Thinking for a translated request. Anthropic counts thinking toward `max_tokens` (as OpenAI
 * counts reasoning toward `max_completion_tokens`), so the budget is at most `max_tokens` − 1;
 * under 1,024 thinking cannot be on. With thinking on Anthropic refuses a temperature other
 * than 1, a `top_p` under 0.95 and a forced tool: those are left out and listed — except a forced
 * tool, which wins over thinking (structured output depends on it).
 *
 * @example
 * messagesReasoningOf({ model, messages, reasoning_effort: 'medium' }, { max_tokens: 8192, model, messages });
 * // { thinking: { type: 'enabled', budget_tokens: 4096 }, dropped: [] }
 */
export function messagesReasoningOf(chat: ChatRequest, out: MessagesRequest): MessagesReasoning {
  const level = chat.reasoning_effort;
  if (typeof level !== 'string' || level === 'none') return { dropped: [] };
  const wanted = BUDGET_BY_EFFORT[level];
  const forced = out.tool_choice?.type === 'any' || out.tool_choice?.type === 'tool';
  const budget = wanted === undefined ? 0 : Math.min(wanted, out.max_tokens - 1);
  if (budget < MIN_THINKING_BUDGET || forced) return { dropped: ['reasoning_effort'] };
  const dropped: string[] = [];
  if (out.temperature != null && out.temperature !== 1) dropped.push('temperature');
  if (out.top_p != null && out.top_p < 0.95) dropped.push('top_p');
  return { thinking: { type: 'enabled', budget_tokens: budget }, dropped };
}

/**
 * Sets `thinking` on a translated messages request from the chat request's `reasoning_effort`,
 * leaving out what thinking forbids. Returns the chat fields that did not carry over.
 *
 * @example
 * const dropped = applyThinking(chat, body); // body.thinking set; ['temperature'] when it was 0.2
 */
export function applyThinking(chat: ChatRequest, body: MessagesRequest): string[] {
  const { thinking, dropped } = messagesReasoningOf(chat, body);
  if (!thinking) return dropped;
  body.thinking = thinking;
  if (dropped.includes('temperature')) delete body.temperature;
  if (dropped.includes('top_p')) delete body.top_p;
  return dropped;
}

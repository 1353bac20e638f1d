/**
 * Non-streaming response translation between chat completions (docs/providers.md#1-openai), legacy text
 * completions (§1) and Anthropic messages (§2), plus the finish/stop reason and usage mappings
 * the stream translators share.
 */

import { totalInputTokens, usageFromAnthropic, usageFromOpenAi } from './usage.js';
import type {
  AnthropicBlock,
  AnthropicMessage,
  AnthropicToolUseBlock,
  AnthropicUsage,
  OpenAiChatCompletion,
  OpenAiTextCompletion,
  OpenAiToolCall,
  OpenAiUsage,
} from './wire.js';

/** Anthropic `stop_reason` → chat `finish_reason`. */
export function finishReasonFromStopReason(stopReason: string | null | undefined): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    case 'tool_use':
      return 'tool_calls';
    default:
      // end_turn, stop_sequence, pause_turn and anything new read as a normal stop: the spec's
      // finish reasons are stop | length | content_filter | tool_calls.
      return 'stop';
  }
}

/** Chat `finish_reason` → Anthropic `stop_reason`. */
export function stopReasonFromFinishReason(finishReason: string | null | undefined): string {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/**
 * Anthropic usage → chat usage, counted as OpenAI counts: `prompt_tokens` is every input token
 * (plain, cache reads and cache writes), the cache reads also in `prompt_tokens_details.cached_tokens`.
 *
 * @example
 * chatUsageFromAnthropic({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2000,
 *   cache_creation_input_tokens: 300 });
 * // { prompt_tokens: 2310, completion_tokens: 5, total_tokens: 2315, prompt_tokens_details: { cached_tokens: 2000 } }
 */
export function chatUsageFromAnthropic(usage: Partial<AnthropicUsage>): OpenAiUsage {
  const tokens = usageFromAnthropic(usage);
  const prompt = totalInputTokens(tokens);
  return {
    prompt_tokens: prompt,
    completion_tokens: tokens.outputTokens,
    total_tokens: prompt + tokens.outputTokens,
    prompt_tokens_details: { cached_tokens: tokens.cacheReadTokens },
  };
}

/**
 * Chat usage → Anthropic usage: `input_tokens` excludes the cached tokens, which become
 * `cache_read_input_tokens` (OpenAI bills no cache writes, so none are reported).
 *
 * @example
 * anthropicUsageFromChat({ prompt_tokens: 2048, completion_tokens: 10, total_tokens: 2058,
 *   prompt_tokens_details: { cached_tokens: 1920 } });
 * // { input_tokens: 128, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1920 }
 */
export function anthropicUsageFromChat(usage: OpenAiUsage | null | undefined): AnthropicUsage {
  const tokens = usageFromOpenAi(usage ?? {});
  return {
    input_tokens: tokens.inputTokens,
    output_tokens: tokens.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: tokens.cacheReadTokens,
  };
}

/** An Anthropic tool_use block → a chat tool call (the input object becomes JSON text). */
export function toolCallFromToolUse(block: AnthropicToolUseBlock): OpenAiToolCall {
  return {
    id: block.id,
    type: 'function',
    function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
  };
}

/**
 * A chat tool call → an Anthropic tool_use block. Anthropic's input is an object: arguments that
 * are not a JSON object (a model's malformed output) become `{}` rather than failing the response.
 */
export function toolUseFromToolCall(call: OpenAiToolCall): AnthropicToolUseBlock {
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments || '{}');
  } catch {
    input = {};
  }
  const object = input !== null && typeof input === 'object' && !Array.isArray(input);
  return {
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: object ? (input as Record<string, unknown>) : {},
  };
}

/** The text of an Anthropic message's text blocks, concatenated. */
export function anthropicMessageText(message: Pick<AnthropicMessage, 'content'>): string {
  let text = '';
  for (const block of message.content) if (block.type === 'text') text += String(block.text ?? '');
  return text;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Strips a vendor id prefix so translated ids keep the upstream's identity. */
function bareId(id: string, prefix: string): string {
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

/**
 * Anthropic message → chat completion.
 *
 * @example
 * chatCompletionFromAnthropic({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x',
 *   content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', stop_sequence: null,
 *   usage: { input_tokens: 3, output_tokens: 1 } }).choices[0].message.content; // 'Hi'
 */
export function chatCompletionFromAnthropic(message: AnthropicMessage): OpenAiChatCompletion {
  const calls = message.content
    .filter((block): block is AnthropicToolUseBlock => block.type === 'tool_use')
    .map(toolCallFromToolUse);
  const text = anthropicMessageText(message);
  const reply: OpenAiChatCompletion['choices'][number]['message'] = {
    role: 'assistant',
    // OpenAI answers null content when the reply is only tool calls; SDKs and clients test for it.
    content: calls.length > 0 && text === '' ? null : text,
    refusal: null,
  };
  if (calls.length > 0) reply.tool_calls = calls;
  return {
    id: `chatcmpl-${bareId(message.id, 'msg_')}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model: message.model,
    choices: [
      {
        index: 0,
        message: reply,
        logprobs: null,
        finish_reason: finishReasonFromStopReason(message.stop_reason),
      },
    ],
    usage: chatUsageFromAnthropic(message.usage),
  };
}

/** Anthropic message → legacy text completion. */
export function textCompletionFromAnthropic(message: AnthropicMessage): OpenAiTextCompletion {
  return {
    id: `cmpl-${bareId(message.id, 'msg_')}`,
    object: 'text_completion',
    created: nowSeconds(),
    model: message.model,
    choices: [
      {
        text: anthropicMessageText(message),
        index: 0,
        logprobs: null,
        finish_reason: finishReasonFromStopReason(message.stop_reason),
      },
    ],
    usage: chatUsageFromAnthropic(message.usage),
  };
}

/** Chat completion → Anthropic message (first choice; the messages format has one). */
export function anthropicMessageFromChat(completion: OpenAiChatCompletion): AnthropicMessage {
  const choice = completion.choices[0];
  const text = choice?.message.content ?? '';
  const content: AnthropicBlock[] = text === '' ? [] : [{ type: 'text', text }];
  for (const call of choice?.message.tool_calls ?? []) content.push(toolUseFromToolCall(call));
  return {
    id: `msg_${bareId(completion.id, 'chatcmpl-')}`,
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: stopReasonFromFinishReason(choice?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsageFromChat(completion.usage),
  };
}

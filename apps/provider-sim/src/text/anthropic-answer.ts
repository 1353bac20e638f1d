// The message envelope both Anthropic answers (text, tool_use) share: usage, the whole message and
// the `message_start` event that opens its stream.
import { eventFrame, type Frame } from '../respond.js';
import type { AnthropicCacheUsage } from './prompt-cache.js';

export type Usage = ReturnType<typeof usageOf>;

/**
 * The usage object of a message, as the Messages API reports it (`@anthropic-ai/sdk`'s `Usage`):
 * the input split into plain input, cache reads and cache writes by lifetime (prompt-cache.ts).
 */
export function usageOf(input: AnthropicCacheUsage, outputTokens: number) {
  return {
    input_tokens: input.input_tokens,
    cache_creation_input_tokens: input.cache_creation_input_tokens,
    cache_read_input_tokens: input.cache_read_input_tokens,
    cache_creation: { ...input.cache_creation },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** What an answer's message is made of. */
export interface Message {
  id: string;
  model: string;
  content: unknown[];
  stopReason: string;
  stopSequence: string | null;
  usage: Usage;
}

/** The message object: the non-streamed answer, and (emptied) the opening of a stream. */
export function messageBody(message: Message) {
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content: message.content,
    stop_reason: message.stopReason,
    stop_sequence: message.stopSequence,
    usage: message.usage,
  };
}

/** `message_start`: the message with no content and no stop yet, one output token counted. */
export function messageStartFrame(message: Message): Frame {
  return eventFrame('message_start', {
    type: 'message_start',
    message: {
      ...messageBody(message),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  });
}

/** `message_delta` (the stop and the output tokens), then `message_stop`. */
export function messageEndFrames(message: Message): Frame[] {
  return [
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stopReason, stop_sequence: message.stopSequence },
      usage: { output_tokens: message.usage.output_tokens },
    }),
    eventFrame('message_stop', { type: 'message_stop' }),
  ];
}

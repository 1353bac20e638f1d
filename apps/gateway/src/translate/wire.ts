/**
 * The shapes the translators read and write. Requests are the spec's own types (generated in
 * @modelgate/core): our API speaks the OpenAI and Anthropic formats, so a body sent upstream has
 * the same type as the client's. Responses and stream events are read from the providers, which
 * may send more than our spec names: only the fields translation touches are named here,
 * everything else passes through as unknown.
 */
import type {
  CreateChatCompletionRequest,
  CreateCompletionRequest,
  CreateMessageRequest,
} from '@modelgate/core';

export type {
  ChatContentPart,
  ChatImagePart,
  ChatMessage,
  ChatResponseFormat,
  ChatTool,
  ChatToolChoice,
  MessageParam,
  MessagesTool,
  MessagesToolChoice,
} from '@modelgate/core';
export type ChatRequest = CreateChatCompletionRequest;
export type CompletionRequest = CreateCompletionRequest;
export type MessagesRequest = CreateMessageRequest;

/** A function call the assistant made (response `message.tool_calls`, request assistant turns). */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A piece of a tool call in a stream chunk (`delta.tool_calls[]`). */
export interface OpenAiToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface OpenAiUsage {
  /** All input tokens, cached ones included. */
  prompt_tokens: number;
  /** All output tokens, reasoning ones included. */
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null; [extra: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; [extra: string]: unknown } | null;
  [extra: string]: unknown;
}

export interface OpenAiChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal?: string | null;
      tool_calls?: OpenAiToolCall[];
    };
    logprobs?: unknown;
    finish_reason: string | null;
  }>;
  usage?: OpenAiUsage;
  [extra: string]: unknown;
}

export interface OpenAiChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      refusal?: string | null;
      tool_calls?: OpenAiToolCallDelta[];
    };
    logprobs?: unknown;
    finish_reason: string | null;
  }>;
  usage?: OpenAiUsage | null;
  [extra: string]: unknown;
}

export interface OpenAiTextCompletion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: Array<{ text: string; index: number; logprobs: unknown; finish_reason: string | null }>;
  usage?: OpenAiUsage | null;
  [extra: string]: unknown;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  [extra: string]: unknown;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicTextBlock[];
  is_error?: boolean;
  [extra: string]: unknown;
}

export type AnthropicImageSource =
  | { type: 'url'; url: string }
  | { type: 'base64'; media_type: string; data: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  [extra: string]: unknown;
}

/** A content block as translation sees it: the four it maps, anything else kept opaque. */
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | { type: string; [extra: string]: unknown };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The cache writes split by lifetime (they sum to `cache_creation_input_tokens`). */
  cache_creation?: {
    ephemeral_5m_input_tokens?: number | null;
    ephemeral_1h_input_tokens?: number | null;
  } | null;
  [extra: string]: unknown;
}

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: AnthropicUsage;
  [extra: string]: unknown;
}

/** Anthropic stream events (docs/providers.md#2-anthropic); `data.type` names the event. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: AnthropicMessage }
  | {
      type: 'content_block_start';
      index: number;
      content_block: {
        type: string;
        text?: string;
        id?: string;
        name?: string;
        [extra: string]: unknown;
      };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: string; text?: string; partial_json?: string; [extra: string]: unknown };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: string | null; stop_sequence: string | null };
      usage: Partial<AnthropicUsage> & { output_tokens: number };
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };

/**
 * The upstream wire shapes the translators read and write (PROVIDERS.md §1 OpenAI, §2 Anthropic).
 * These describe what the providers speak, not our API (whose types come from @modelgate/core):
 * only the fields translation touches are named, everything else passes through as unknown.
 */

export type OpenAiRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface OpenAiTextPart {
  type: 'text';
  text: string;
}

/** An image part of a chat message: an http(s) URL or a `data:` URL. */
export interface OpenAiImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type OpenAiContentPart = OpenAiTextPart | OpenAiImagePart;

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

export interface OpenAiMessage {
  role: OpenAiRole;
  content?: string | OpenAiContentPart[] | null;
  name?: string;
  tool_calls?: OpenAiToolCall[];
  tool_call_id?: string;
  [extra: string]: unknown;
}

/** A function tool definition (`tools[]`). */
export interface OpenAiTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean | null;
  };
}

export type OpenAiToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } };

/** `response_format` of a chat request. */
export type OpenAiResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        description?: string;
        schema?: Record<string, unknown>;
        strict?: boolean | null;
      };
    };

export interface OpenAiChatRequest {
  model: string;
  messages: OpenAiMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null; [extra: string]: unknown } | null;
  user?: string;
  tools?: OpenAiTool[];
  tool_choice?: OpenAiToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: OpenAiResponseFormat;
  [extra: string]: unknown;
}

export interface OpenAiCompletionRequest {
  model: string;
  prompt: string | string[];
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
  user?: string;
  [extra: string]: unknown;
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
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

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  [extra: string]: unknown;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessageParam[];
  system?: string | AnthropicTextBlock[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  metadata?: { user_id?: string | null };
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  [extra: string]: unknown;
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
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

/** Anthropic stream events (PROVIDERS.md §2 Streaming); `data.type` names the event. */
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

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

export interface OpenAiMessage {
  role: OpenAiRole;
  content: string | OpenAiTextPart[] | null;
  name?: string;
  [extra: string]: unknown;
}

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
    message: { role: 'assistant'; content: string | null; refusal?: string | null };
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
    delta: { role?: 'assistant'; content?: string | null; refusal?: string | null };
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

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | Array<AnthropicTextBlock | { type: string; [extra: string]: unknown }>;
}

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
  content: Array<AnthropicTextBlock | { type: string; [extra: string]: unknown }>;
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
      content_block: { type: string; text?: string; [extra: string]: unknown };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: string; text?: string; [extra: string]: unknown };
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

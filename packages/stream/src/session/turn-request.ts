// What a turn is asked for: the endpoint with its extra fields, the conversation and the session's
// callbacks. Apart from the turn functions, so each format's turn can name it without importing
// the others.
import type { ModelgateClient } from '@modelgate/core';
import type { ChatStreamRequest } from '../chat.js';
import type { StreamOptions } from '../event-stream.js';
import type { MessageStreamRequest } from '../message.js';
import type { ResponseStreamRequest } from '../responses.js';
import type { SessionMessage } from './messages.js';
import type { TurnProgress } from './turn-result.js';

/** Request fields of `/v1/responses` sent with every turn besides `model` and `input`. */
export type ResponsesRequestExtras = Partial<Omit<ResponseStreamRequest, 'model' | 'input'>>;

/** Request fields of `/v1/chat/completions` sent with every turn besides `model` and `messages`. */
export type ChatRequestExtras = Partial<Omit<ChatStreamRequest, 'model' | 'messages'>>;
/** Request fields of `/v1/messages` sent with every turn besides `model` and `messages`. */
export type MessagesRequestExtras = Partial<Omit<MessageStreamRequest, 'model' | 'messages'>>;

/** Which endpoint a session talks to, with the extra fields that endpoint takes. */
export type ChatFormat =
  | { format: 'chat'; body?: ChatRequestExtras | undefined }
  | { format: 'messages'; body?: MessagesRequestExtras | undefined }
  | { format: 'responses'; body?: ResponsesRequestExtras | undefined };

export interface TurnRequest {
  client: ModelgateClient;
  model: string;
  messages: readonly SessionMessage[];
  format: ChatFormat;
  options: StreamOptions;
  /** Called after every increment of text or tool calls. */
  onProgress: (progress: TurnProgress) => void;
  /**
   * Responses format only: a stored response that ends with `messages[0, after)`; the turn names
   * it as `previous_response_id` and sends only the messages after it.
   */
  continuation?: { responseId: string; after: number } | undefined;
}

/** How a session's options name the endpoint: `format` (default `chat`) and that endpoint's `body`. */
export type ChatFormatOption =
  | { format?: 'chat' | undefined; body?: ChatRequestExtras | undefined }
  | { format: 'messages'; body?: MessagesRequestExtras | undefined }
  | { format: 'responses'; body?: ResponsesRequestExtras | undefined };

/**
 * The endpoint a session's options name, as a turn takes it.
 *
 * @example
 * chatFormatOf({ format: 'messages', body: { max_tokens: 512 } });
 * // → { format: 'messages', body: { max_tokens: 512 } }
 */
export function chatFormatOf(option: ChatFormatOption): ChatFormat {
  switch (option.format) {
    case 'messages':
      return { format: 'messages', body: option.body };
    case 'responses':
      return { format: 'responses', body: option.body };
    default:
      return { format: 'chat', body: option.body };
  }
}

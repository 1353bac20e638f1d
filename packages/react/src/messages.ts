// Chat messages as the UI holds them: the API's ChatMessage plus a stable id for React keys.
import type { ChatMessage } from '@modelgate/core';

/** A {@link ChatMessage} with an `id` that stays the same while the message streams in. */
export type UIMessage = ChatMessage & { id: string };

/** What `append` accepts: plain text (a user message), or a message with or without an id. */
export type MessageInput = string | ChatMessage | UIMessage;

let counter = 0;

/** Ids unique within the page: a random prefix per load, then a counter. */
const prefix = Math.random().toString(36).slice(2, 8);
export function createMessageId(): string {
  counter += 1;
  return `msg-${prefix}-${counter}`;
}

export function toUIMessage(input: MessageInput): UIMessage {
  if (typeof input === 'string') return { id: createMessageId(), role: 'user', content: input };
  return 'id' in input && typeof input.id === 'string'
    ? (input as UIMessage)
    : { ...input, id: createMessageId() };
}

/** Strips the UI-only `id`: the gateway refuses unknown fields. */
export function toRequestMessages(messages: readonly UIMessage[]): ChatMessage[] {
  return messages.map(({ id: _id, ...message }) => message);
}

/**
 * The text of a message, whether its `content` is a string or an array of text blocks ('' when
 * it has none, as in an assistant turn that only calls tools).
 *
 * @example
 * ```tsx
 * {messages.map((m) => <p key={m.id}>{getMessageText(m)}</p>)}
 * ```
 */
export function getMessageText(message: Pick<ChatMessage, 'content'>): string {
  const { content } = message;
  // An assistant turn that only calls tools has no content.
  if (content == null) return '';
  return typeof content === 'string' ? content : content.map((block) => block.text).join('');
}

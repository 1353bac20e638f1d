// A chat session's messages: the API's ChatMessage plus a stable id, and their translation into
// the two request shapes (`/v1/chat/completions` takes them as they are, `/v1/messages` does not).
import type {
  ChatMessage,
  ChatToolCall,
  MessageParam,
  RequestContentBlock,
  TextBlock,
} from '@modelgate/core';

/**
 * A {@link ChatMessage} with an `id` that stays the same while the message streams in, and
 * `stopped` on an assistant answer cut short by `stop()` (also one stopped before its first token,
 * whose content is empty). Both stay in the session; neither is sent.
 */
export type SessionMessage = ChatMessage & { id: string; stopped?: true };

/** What `send` accepts: plain text (a user message), or a message with or without an id. */
export type MessageInput = string | ChatMessage | SessionMessage;

let counter = 0;
/**
 * A random prefix per page load (or process), then a counter: unique without a clock. Made on first
 * use, so importing the package runs nothing (bundlers drop what an app does not use).
 */
let prefix: string | undefined;

/** A new message id, unique within this page or process. */
export function createMessageId(): string {
  prefix ??= Math.random().toString(36).slice(2, 8);
  counter += 1;
  return `msg-${prefix}-${counter}`;
}

/** Gives a message an id when it has none; a string becomes a user message. */
export function toSessionMessage(input: MessageInput): SessionMessage {
  if (typeof input === 'string') return { id: createMessageId(), role: 'user', content: input };
  if ('id' in input && typeof input.id === 'string') return { ...input, id: input.id };
  return { ...input, id: createMessageId() };
}

/** The messages as `/v1/chat/completions` takes them: the UI-only `id` and `stopped` stripped (unknown fields are refused). */
export function toChatMessages(messages: readonly SessionMessage[]): ChatMessage[] {
  return messages.map(({ id: _id, stopped: _stopped, ...message }) => message);
}

/**
 * The text of a message, whether its `content` is a string or text blocks ('' when it has none,
 * as in an assistant turn that only calls tools).
 *
 * @example
 * ```ts
 * for (const m of session.getSnapshot().messages) console.log(m.role, getMessageText(m));
 * ```
 */
export function getMessageText(message: Pick<ChatMessage, 'content'>): string {
  const { content } = message;
  if (content == null) return '';
  if (typeof content === 'string') return content;
  // Image parts carry no text.
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The conversation as `/v1/messages` takes it: system text apart, user and assistant turns. */
export interface MessagesConversation {
  system: string | undefined;
  messages: MessageParam[];
}

/**
 * Translates a chat conversation for `/v1/messages`: system and developer messages become
 * `system`; an assistant's `tool_calls` become `tool_use` blocks; `tool` messages become
 * `tool_result` blocks of a user turn; neighbouring turns of one role are merged, as that format
 * requires turns to alternate.
 */
export function toMessagesConversation(messages: readonly ChatMessage[]): MessagesConversation {
  const system: string[] = [];
  const turns: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(getMessageText(message));
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    // An answer stopped before its first token has nothing to send (this format refuses an empty
    // turn); the user turns around it merge below.
    if (blocks.length === 0 && role === 'assistant') continue;
    const last = turns.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: turns };
}

function toBlocks(message: ChatMessage): RequestContentBlock[] {
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: message.tool_call_id ?? '',
        content: getMessageText(message),
      },
    ];
  }
  const text = getMessageText(message);
  const blocks: RequestContentBlock[] = text === '' ? [] : [textBlock(text)];
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  for (const call of calls) blocks.push(toolUseBlock(call));
  return blocks;
}

function textBlock(text: string): TextBlock & { type: 'text' } {
  return { type: 'text', text };
}

function toolUseBlock(call: ChatToolCall): RequestContentBlock {
  return { type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call) };
}

/** A model may produce arguments that are not a JSON object; they are sent as `{}` then. */
function parseArguments(call: ChatToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

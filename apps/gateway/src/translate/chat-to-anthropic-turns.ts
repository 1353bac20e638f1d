/**
 * Chat messages → Anthropic turns: system and developer messages are set apart (they become the
 * top-level `system`), assistant `tool_calls` become `tool_use` blocks (arguments as JSON text →
 * an input object), `tool` messages become `tool_result` blocks in a user turn, and consecutive
 * same-role messages merge, since Anthropic expects alternating turns.
 */
import type {
  ChatToolCall,
  RequestContentBlock,
  ToolResultBlock,
  ToolUseBlock,
} from '@modelgate/core';
import { badRequest } from '../errors/api-error.js';
import { imageBlockOfPart } from './images.js';
import type { ChatMessage, MessageParam } from './wire.js';

/** The chat messages split into Anthropic's system texts and its alternating turns. */
export interface AnthropicTurns {
  system: string[];
  messages: MessageParam[];
}

/** Joins a chat message's content (string or text parts) into plain text. */
export function chatContentText(content: ChatMessage['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toAnthropicBlocks(content: ChatMessage['content']): MessageParam['content'] {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map(
    (part): RequestContentBlock =>
      part.type === 'image_url' ? imageBlockOfPart(part) : { type: 'text', text: part.text },
  );
}

function asBlockArray(content: MessageParam['content']): RequestContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A tool call's arguments (JSON text) as the input object Anthropic requires. */
function toolInput(call: ChatToolCall, param: string): Record<string, unknown> {
  const text = call.function.arguments.trim();
  if (text === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    input = undefined;
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest(
      `${param}: the arguments must be a JSON object to be sent to this model.`,
      param,
      'invalid_value',
    );
  }
  return input as Record<string, unknown>;
}

function assistantBlocks(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  index: number,
): MessageParam['content'] {
  const content = toAnthropicBlocks(message.content);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return content;
  const blocks: RequestContentBlock[] =
    content === '' ? [] : asBlockArray(content).filter((b) => b.type !== 'text' || b.text !== '');
  calls.forEach((call, j) => {
    const use: ToolUseBlock = {
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInput(call, `messages.${index}.tool_calls.${j}.function.arguments`),
    };
    blocks.push(use);
  });
  return blocks;
}

function toolResultBlock(message: Extract<ChatMessage, { role: 'tool' }>): ToolResultBlock {
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id,
    content: chatContentText(message.content),
  };
}

/**
 * Chat messages as Anthropic's system texts and turns.
 *
 * @example
 * anthropicTurns([{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }]);
 * // → { system: ['Be brief'], messages: [{ role: 'user', content: 'Hi' }] }
 */
export function anthropicTurns(chat: readonly ChatMessage[]): AnthropicTurns {
  const system: string[] = [];
  const messages: MessageParam[] = [];
  chat.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(chatContentText(message.content));
      return;
    }
    // A tool message is a tool_result block in a user turn; consecutive results (parallel
    // calls) merge into one turn below, ahead of any user text, as Anthropic requires.
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content: MessageParam['content'] =
      message.role === 'tool'
        ? [toolResultBlock(message)]
        : message.role === 'assistant'
          ? assistantBlocks(message, index)
          : toAnthropicBlocks(message.content);
    const previous = messages[messages.length - 1];
    if (previous && previous.role === role) {
      // Anthropic expects alternating turns: merge consecutive same-role messages into blocks.
      previous.content = [...asBlockArray(previous.content), ...asBlockArray(content)];
    } else {
      messages.push({ role, content });
    }
  });
  return { system, messages };
}

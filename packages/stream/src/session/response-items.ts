// A chat session's messages as Responses API input items: the third request shape a session can
// speak, next to `/v1/chat/completions` (messages as they are) and `/v1/messages` (messages.ts).
import type {
  ChatContentPart,
  ChatMessage,
  ResponseContentPart,
  ResponseInputItem,
} from '@modelgate/core';
import { getMessageText } from './messages.js';

/**
 * Translates chat messages into `/v1/responses` input items: user, system and developer messages
 * stay messages (text parts become `input_text`, image parts `input_image`); an assistant's text
 * becomes an assistant message of `output_text` and each of its `tool_calls` a `function_call`
 * item; a `tool` message becomes a `function_call_output`. An answer stopped before its first
 * token has nothing to send and is left out.
 *
 * @example
 * ```ts
 * toResponseInput([{ role: 'user', content: 'Hi' }]);
 * // [{ type: 'message', role: 'user', content: 'Hi' }]
 * ```
 */
export function toResponseInput(messages: readonly ChatMessage[]): ResponseInputItem[] {
  return messages.flatMap(toItems);
}

function toItems(message: ChatMessage): ResponseInputItem[] {
  switch (message.role) {
    case 'tool':
      return [
        {
          type: 'function_call_output',
          call_id: message.tool_call_id ?? '',
          output: getMessageText(message),
        },
      ];
    case 'assistant': {
      const text = getMessageText(message);
      const items: ResponseInputItem[] =
        text === ''
          ? []
          : [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }];
      for (const call of message.tool_calls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        });
      }
      return items;
    }
    default: {
      const { content } = message;
      return [
        {
          type: 'message',
          role: message.role,
          content: typeof content === 'string' ? content : (content ?? []).map(toInputPart),
        },
      ];
    }
  }
}

function toInputPart(part: ChatContentPart): ResponseContentPart {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  return {
    type: 'input_image',
    image_url: part.image_url.url,
    detail: part.image_url.detail ?? 'auto',
  };
}

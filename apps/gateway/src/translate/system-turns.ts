/**
 * `system` turns inside a messages conversation (Claude Code sends them beside the top-level
 * `system`) folded into the top-level `system`, for a messages-format upstream that refuses the
 * role in `messages` (as Anthropic's API does on the models that do not take it: a 400 "Unexpected
 * role "system""). Their text blocks join the end of `system` in order, `cache_control` kept;
 * blocks of other kinds keep their readable text (content-blocks.ts) or are left out, as
 * `system` holds text only.
 */
import type { MessagesTextBlock, RequestContentBlock } from '@modelgate/core';
import { isKnownBlock, readableText } from './content-blocks.js';
import type { MessageParam, MessagesRequest } from './wire.js';

/** A messages body, to create or to count (the fold reads and writes only these two fields). */
export type Conversation = Pick<MessagesRequest, 'system' | 'messages'>;

/** Whether a conversation holds a `system` turn. */
export function hasSystemTurns(request: Conversation): boolean {
  return request.messages.some((message) => message.role === 'system');
}

/** A turn's content as `system` text blocks. */
function systemBlocks(content: MessageParam['content']): MessagesTextBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.flatMap((block: RequestContentBlock): MessagesTextBlock[] => {
    if (isKnownBlock(block)) return block.type === 'text' ? [block] : [];
    const text = readableText(block);
    return text === null ? [] : [{ type: 'text', text }];
  });
}

/**
 * The request with its `system` turns moved, in order, to the end of the top-level `system`.
 *
 * @example
 * foldSystemTurns({ model: 'm', max_tokens: 8, system: 'Be brief.', messages: [
 *   { role: 'user', content: 'Hi' }, { role: 'system', content: 'Answer in French.' }] });
 * // → { …, system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Answer in French.' }],
 * //     messages: [{ role: 'user', content: 'Hi' }] }
 */
export function foldSystemTurns<T extends Conversation>(request: T): T {
  const folded = request.messages
    .filter((message) => message.role === 'system')
    .flatMap((message) => systemBlocks(message.content));
  const before: MessagesTextBlock[] =
    typeof request.system === 'string'
      ? [{ type: 'text', text: request.system }]
      : (request.system ?? []);
  return {
    ...request,
    system: [...before, ...folded],
    messages: request.messages.filter((message) => message.role !== 'system'),
  };
}

/**
 * Content blocks of a messages request that the spec does not list (`document`, `search_result`,
 * `server_tool_use`, …; spec: VendorContentBlock). The client's vendor owns them: a messages
 * upstream gets them as sent, and the translation to chat keeps what it can read of them — their
 * text — and lists the others as dropped. Translators narrow a block to the kinds they know with
 * {@link isKnownBlock} first.
 */
import type {
  ImageBlock,
  MessagesTextBlock,
  RedactedThinkingBlock,
  RequestContentBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
} from '@modelgate/core';
import { zImageBlock } from '@modelgate/core/zod';

/** A block of a kind the spec lists, each checked against its own schema. */
export type KnownContentBlock =
  | MessagesTextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

const KNOWN_KINDS: ReadonlySet<string> = new Set<KnownContentBlock['type']>([
  'text',
  'image',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

/**
 * Whether a block is one of the listed kinds (validation took every other kind as a vendor block).
 *
 * @example
 * isKnownBlock({ type: 'text', text: 'Hi' }); // true
 * isKnownBlock({ type: 'search_result', source: 'https://example.com' }); // false
 */
export function isKnownBlock(block: RequestContentBlock): block is KnownContentBlock {
  return KNOWN_KINDS.has(block.type);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a list of blocks, or null when none has any. */
function textOfBlocks(blocks: readonly unknown[]): string | null {
  const texts = blocks.flatMap((block) =>
    isRecord(block) && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : null;
}

/**
 * The text a model can read in a block of any kind: its `text`; its `content` (a string, or the
 * text of its blocks: `search_result`, a `tool_result`); or a `document`'s text source (`text`
 * data, or `content` blocks). Null when there is none (`server_tool_use`, a PDF document, …).
 *
 * @example
 * readableText({ type: 'search_result', source: 's', title: 't',
 *   content: [{ type: 'text', text: 'Found.' }] }); // 'Found.'
 * readableText({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A' } }); // 'A'
 * readableText({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }); // null
 */
export function readableText(block: Record<string, unknown>): string | null {
  if (typeof block.text === 'string') return block.text;
  const { content, source } = block;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return textOfBlocks(content);
  if (isRecord(source)) {
    if (source.type === 'text' && typeof source.data === 'string') return source.data;
    if (source.type === 'content' && Array.isArray(source.content)) {
      return textOfBlocks(source.content);
    }
  }
  return null;
}

/** A block inside a tool result's content, as the chat translation takes it. */
export type ResultPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; block: ImageBlock }
  | { kind: 'dropped' };

/**
 * A tool result's inner block: an image the spec's ImageBlock describes (by URL or data), any
 * block with readable text, or dropped.
 *
 * @example
 * resultPart({ type: 'tool_reference', tool_name: 'Read' }); // { kind: 'dropped' }
 */
export function resultPart(inner: { type: string; [key: string]: unknown }): ResultPart {
  if (inner.type === 'image') {
    const image = zImageBlock.safeParse(inner);
    if (!image.success || !hasChatForm(image.data)) return DROPPED;
    return { kind: 'image', block: { ...image.data, type: 'image' } };
  }
  const text = readableText(inner);
  return text === null ? DROPPED : { kind: 'text', text };
}

const DROPPED: ResultPart = { kind: 'dropped' };

/** An image chat can carry: by URL or data, not in the vendor's Files API. */
const hasChatForm = (image: ImageBlock) => image.source.type !== 'file';

/** How a dropped block is named in `x-modelgate-dropped-params`: its place, then its kind. */
const droppedName = (place: string, type: string) => `${place}(${type})`;

/** The dropped blocks of one turn's content, each kind once per place. */
function droppedOfTurn(content: readonly RequestContentBlock[], seen: Set<string>): void {
  for (const block of content) {
    if (!isKnownBlock(block)) {
      if (readableText(block) === null) seen.add(droppedName('messages.*.content.*', block.type));
    } else if (block.type === 'image' && !hasChatForm(block)) {
      seen.add(droppedName('messages.*.content.*', 'image'));
    } else if (block.type === 'tool_result' && Array.isArray(block.content)) {
      for (const inner of block.content) {
        if (resultPart(inner).kind === 'dropped')
          seen.add(droppedName('messages.*.content.*.content.*', inner.type));
      }
    }
  }
}

/**
 * The blocks a translation to chat cannot carry, for `x-modelgate-dropped-params`: blocks of
 * kinds the spec does not list that have no readable text, and images in the vendor's Files API,
 * in a turn or inside a tool result (there, also an image the spec's ImageBlock does not
 * describe). Each kind is named once per
 * place, so a long conversation gives a short list. Thinking blocks are not listed: they are the
 * other vendor's state, left out by design.
 *
 * @example
 * droppedBlocks([{ role: 'assistant', content: [
 *   { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }] }]);
 * // ['messages.*.content.*(server_tool_use)']
 */
export function droppedBlocks(
  messages: readonly { content: string | readonly RequestContentBlock[] }[],
): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    if (Array.isArray(message.content)) droppedOfTurn(message.content, seen);
  }
  return [...seen];
}

// Extended thinking as the Messages API answers it when the request asks for it (`thinking` of type
// `enabled` or `adaptive`): a `thinking` block with an opaque `signature` before the text, streamed
// as `thinking_delta` events and one `signature_delta` just before the block's `content_block_stop`;
// a `redacted_thinking` block (opaque `data`) when the last user turn carries the vendor's documented
// test string. Shapes checked against @anthropic-ai/sdk 1.14.0 (ThinkingBlock, RedactedThinkingBlock,
// ThinkingDelta, SignatureDelta).
import { createHash } from 'node:crypto';
import { eventFrame, type Frame } from '../respond.js';
import { countTokens } from './tokens.js';

/** The string Anthropic documents for testing redacted thinking. */
export const REDACTED_THINKING_TRIGGER =
  'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253';

export type ThinkingContent =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** The request asks for thinking. */
export function wantsThinking(thinking: unknown): boolean {
  if (typeof thinking !== 'object' || thinking === null) return false;
  const type = (thinking as { type?: unknown }).type;
  return type === 'enabled' || type === 'adaptive';
}

/** Opaque, deterministic bytes standing for what the real API signs or encrypts. */
function opaque(label: string, text: string): string {
  return createHash('sha512').update(`${label}\n${text}`).digest('base64');
}

/** The thinking blocks an answer to `key` (the conversation's last user text) starts with. */
export function thinkingBlocks(key: string): ThinkingContent[] {
  const topic = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  const thinking = `The user wrote "${topic}". A short, plain answer fits.`;
  const blocks: ThinkingContent[] = [
    { type: 'thinking', thinking, signature: opaque('signature', thinking) },
  ];
  if (key.includes(REDACTED_THINKING_TRIGGER)) {
    blocks.push({ type: 'redacted_thinking', data: opaque('redacted', key) });
  }
  return blocks;
}

/** Output tokens the thinking blocks cost (billed as output, as the real API bills them). */
export function thinkingTokens(blocks: readonly ThinkingContent[]): number {
  let total = 0;
  for (const block of blocks) {
    total += block.type === 'thinking' ? countTokens(block.thinking) : 16;
  }
  return total;
}

/** The events of the thinking blocks, from content index 0; a thinking block's text word by word. */
export function thinkingFrames(blocks: readonly ThinkingContent[]): Frame[] {
  const frames: Frame[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'redacted_thinking') {
      frames.push(
        eventFrame('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: block,
        }),
        eventFrame('content_block_stop', { type: 'content_block_stop', index }),
      );
      return;
    }
    frames.push(
      eventFrame('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
    );
    for (const piece of block.thinking.match(/\S+\s*/g) ?? []) {
      const delta = { type: 'thinking_delta', thinking: piece };
      frames.push(
        eventFrame('content_block_delta', { type: 'content_block_delta', index, delta }, true),
      );
    }
    const signature = { type: 'signature_delta', signature: block.signature };
    frames.push(
      eventFrame('content_block_delta', { type: 'content_block_delta', index, delta: signature }),
      eventFrame('content_block_stop', { type: 'content_block_stop', index }),
    );
  });
  return frames;
}

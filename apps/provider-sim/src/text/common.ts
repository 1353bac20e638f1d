// Pieces both text protocols share: the text of a message's content, answer ids, and a JSON answer
// as a generation.
import { randomBytes } from 'node:crypto';
import { isRecord } from '../errors.js';
import type { Generation } from './generate.js';
import { jsonPieces } from './tools.js';

/**
 * Text of a message `content` (a string, or OpenAI parts / Anthropic blocks); images and other
 * parts count as nothing.
 *
 * @example
 * textOf([{ type: 'text', text: 'Hi' }, { type: 'image_url' }]); // 'Hi'
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const part of content)
      if (isRecord(part) && typeof part.text === 'string') text += part.text;
    return text;
  }
  return '';
}

/**
 * The text the model reads in an Anthropic `search_result` (its text blocks) or `document` (a
 * `text` source's data, or a `content` source's text blocks), which Anthropic counts as input
 * like any text; '' for other blocks and for PDFs, which the simulator does not read.
 *
 * @example
 * sourcedText({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A' } }); // 'A'
 */
export function sourcedText(block: Record<string, unknown>): string {
  if (block.type === 'search_result') return textOf(block.content);
  if (block.type !== 'document' || !isRecord(block.source)) return '';
  const { source } = block;
  if (source.type === 'text' && typeof source.data === 'string') return source.data;
  return source.type === 'content' ? textOf(source.content) : '';
}

/** A random answer id after its provider's prefix (`chatcmpl-`, `msg_`, `call_`…). */
export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}

/** A generation whose text is a JSON answer, streamed a few characters a piece. */
export function jsonGeneration(json: string): Generation {
  return { pieces: jsonPieces(json), text: json, finish: 'stop', stopSequence: null };
}

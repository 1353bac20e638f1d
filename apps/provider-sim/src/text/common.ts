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

/** A random answer id after its provider's prefix (`chatcmpl-`, `msg_`, `call_`…). */
export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}

/** A generation whose text is a JSON answer, streamed a few characters a piece. */
export function jsonGeneration(json: string): Generation {
  return { pieces: jsonPieces(json), text: json, finish: 'stop', stopSequence: null };
}

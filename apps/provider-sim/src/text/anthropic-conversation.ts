// The `messages` of a Messages request: each turn checked as the real API checks it, then read into
// what the simulated model answers (its key, the input tokens, the images it was shown).
import { badRequest, isRecord } from '../errors.js';
import { checkToolPairing } from './anthropic-tools.js';
import { sourcedText, textOf } from './common.js';
import { checkImageBlock } from './images.js';
import { countTokens } from './tokens.js';

export interface Conversation {
  key: string;
  inputTokens: number;
  /** The last user turn carries tool results: the model reads them and answers with text. */
  endsWithToolResult: boolean;
  /** Image blocks in the conversation. */
  images: number;
}

/** Reads a non-empty list of turns (the caller checked it is one). */
export function readConversation(messages: unknown[]): Conversation {
  const turns: Record<string, unknown>[] = [];
  let key = '';
  let inputTokens = 0;
  let endsWithToolResult = false;
  let hasToolBlocks = false;
  let images = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = checkTurn(messages[i], i);
    turns.push(message);
    const text = textOf(message.content);
    // A few tokens of framing per turn, as the real count includes the role markers.
    inputTokens += 3 + countTokens(text);
    const results = toolResultText(message.content);
    const blocks = readBlocks(message.content, i);
    images += blocks.images;
    inputTokens += blocks.toolUseTokens + blocks.sourcedTokens;
    if (blocks.hasToolBlocks) hasToolBlocks = true;
    inputTokens += countTokens(results);
    if (message.role === 'user') {
      // After tool results the reply depends on them too, as a model's would.
      key = results === '' ? text : `${key}|${results}`;
      endsWithToolResult = results !== '';
    }
  }
  if (hasToolBlocks) checkToolPairing(turns);
  return { key, inputTokens, endsWithToolResult, images };
}

/** Turn `i`: a user or assistant object whose content is a string or a list of blocks. */
function checkTurn(message: unknown, i: number): Record<string, unknown> {
  if (!isRecord(message)) throw badRequest(`messages.${i}: Input should be a valid dictionary`);
  if (message.role === 'system') {
    throw badRequest(
      'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    );
  }
  if (message.role !== 'user' && message.role !== 'assistant') {
    throw badRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  }
  if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
    throw badRequest(
      `messages.${i}.content: Input should be a valid string or list of content blocks`,
    );
  }
  return message;
}

/**
 * The image, tool and sourced blocks of turn `i`: images checked and counted, tool_use input and
 * the text of documents and search results counted.
 */
function readBlocks(
  content: unknown,
  i: number,
): { images: number; toolUseTokens: number; sourcedTokens: number; hasToolBlocks: boolean } {
  const found = { images: 0, toolUseTokens: 0, sourcedTokens: 0, hasToolBlocks: false };
  if (!Array.isArray(content)) return found;
  for (const [j, block] of content.entries()) {
    if (!isRecord(block)) continue;
    if (block.type === 'image') {
      checkImageBlock(block, `messages.${i}.content.${j}`);
      found.images++;
    } else if (block.type === 'tool_use') {
      found.hasToolBlocks = true;
      found.toolUseTokens += countTokens(JSON.stringify(block.input ?? {}));
    } else if (block.type === 'tool_result') found.hasToolBlocks = true;
    else found.sourcedTokens += countTokens(sourcedText(block));
  }
  return found;
}

/** Text of tool_result blocks (string content or text blocks). */
function toolResultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (isRecord(block) && block.type === 'tool_result') text += textOf(block.content);
  }
  return text;
}

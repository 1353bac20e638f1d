/**
 * Token counts for metering. The reservation uses a cheap character estimate (it is corrected at
 * settlement); a stream cut short is billed from a real tokenizer count of what was produced
 * (docs/design.md), with gpt-tokenizer loaded on first use so the hot path never pays
 * for its vocabulary.
 */
import { readableText } from '../translate/content-blocks.js';
import type { TextRequest } from './request.js';

/** Per-message framing tokens in chat formats (role markers), as OpenAI documents ~3–4. */
const TOKENS_PER_MESSAGE = 4;

/**
 * What a chat upstream adds to the text's own tokens when it counts a prompt: 3 tokens of role
 * markers per message and 3 that prime the reply (OpenAI's documented counting). A legacy prompt
 * is counted as it is.
 */
const FRAMING_PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

/** A cheap upper-leaning estimate: ~4 characters per token for English text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | null = null;

/**
 * The longest piece handed to the tokenizer at once. Byte-pair encoding costs the square of a
 * word's length, and a run without spaces is one word: 30,000 emoji counted whole held the event
 * loop for 21 s (10,000: 2 s); in pieces the count is linear.
 */
const MAX_PIECE = 2_048;

/**
 * `text` in pieces of at most MAX_PIECE characters, each cut just before a whitespace character
 * when there is one in its second half (the tokenizer splits words there anyway, so counts add
 * up exactly), else at the limit — never inside a surrogate pair.
 *
 * @example
 * tokenizerPieces('a'.repeat(5000)).map((p) => p.length); // [2048, 2048, 904]
 */
export function tokenizerPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > MAX_PIECE) {
    let end = start + MAX_PIECE;
    let cut = end;
    while (cut > start + MAX_PIECE / 2 && !/\s/.test(text[cut]!)) cut--;
    if (cut > start + MAX_PIECE / 2) end = cut;
    else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * Counts tokens with gpt-tokenizer (o200k_base), piece by piece (see tokenizerPieces).
 *
 * @example
 * await countTokens('Hello world'); // 2
 */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  tokenizer ??= import('gpt-tokenizer').then((m) => m.countTokens as CountTokens);
  const count = await tokenizer;
  let total = 0;
  for (const piece of tokenizerPieces(text)) total += count(piece);
  return total;
}

/**
 * The prompt text of a request in any client format, and its message count. Tool definitions
 * (name, description, schema), tool calls in earlier turns and tool results are input too: the
 * upstream bills them, so the reservation and a fallback count include them as JSON text.
 */
export function promptOf(request: TextRequest): {
  text: string;
  parts: string[];
  messages: number;
} {
  // A responses request counts as its chat pivot: the same messages, tools and tool calls.
  if (request.format === 'responses') return promptOf({ format: 'chat', body: request.pivot });
  const parts: string[] = [];
  if (request.format === 'completion') {
    const { prompt } = request.body;
    parts.push(typeof prompt === 'string' ? prompt : prompt.join(''));
    return { text: parts[0]!, parts, messages: 1 };
  }
  if (request.body.tools && request.body.tools.length > 0) {
    parts.push(JSON.stringify(request.body.tools));
  }
  let system = 0;
  if (request.format === 'messages') {
    const body = request.body;
    if (body.system) {
      system = 1;
      addContent(parts, body.system);
    }
    for (const message of body.messages) addContent(parts, message.content);
  } else {
    for (const message of request.body.messages) {
      if (message.content) addContent(parts, message.content);
      if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
        parts.push(JSON.stringify(message.tool_calls));
      }
    }
  }
  return { text: parts.join('\n'), parts, messages: request.body.messages.length + system };
}

/** A content block of either format, as far as counting its text goes. */
type CountedBlock = { type: string; text?: string; content?: string | CountedBlock[] };

/**
 * The text pieces of a message's content: text parts, tool results' text, tool uses as JSON, and
 * the readable text of the vendor's other blocks (a text `document`, a `search_result`).
 */
function addContent(parts: string[], content: string | readonly CountedBlock[]): void {
  if (typeof content === 'string') {
    parts.push(content);
    return;
  }
  for (const block of content) {
    if (typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'tool_result' && block.content !== undefined) {
      addContent(parts, block.content);
    } else if (block.type === 'tool_use') parts.push(JSON.stringify(block));
    else {
      const text = readableText(block);
      if (text !== null) parts.push(text);
    }
  }
}

/**
 * Input tokens of a request counted as its upstream counts them, for billing a stream that ended
 * before the upstream reported usage (an OpenAI stream reports it only in its last chunk): the
 * tokenizer's count of the prompt text plus the per-message framing.
 *
 * @example
 * await countInputTokens({ format: 'chat', body: { model, messages: [{ role: 'user', content: 'Hello' }] } }); // 1 + 3 + 3
 */
export async function countInputTokens(request: TextRequest): Promise<number> {
  const prompt = promptOf(request);
  // Each piece on its own, as the upstream counts each message's content on its own.
  let text = 0;
  for (const part of prompt.parts) text += await countTokens(part);
  if (request.format === 'completion') return text;
  return text + prompt.messages * FRAMING_PER_MESSAGE + REPLY_PRIMING;
}

/** Estimated input tokens of a request, for the reservation. */
export function estimateInputTokens(request: TextRequest): number {
  const prompt = promptOf(request);
  return estimateTokens(prompt.text) + prompt.messages * TOKENS_PER_MESSAGE + 3;
}

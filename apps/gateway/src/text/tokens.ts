/**
 * Token counts for metering. The reservation uses a cheap character estimate (it is corrected at
 * settlement); a stream cut short is billed from a real tokenizer count of what was produced
 * (DESIGN.md Text generation), with gpt-tokenizer loaded on first use so the hot path never pays
 * for its vocabulary.
 */

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
export function promptOf(
  format: 'chat' | 'completion' | 'messages',
  body: Record<string, unknown>,
): { text: string; parts: string[]; messages: number } {
  const parts: string[] = [];
  const add = (content: unknown) => {
    if (typeof content === 'string') parts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const block = part as { type?: unknown; text?: unknown; content?: unknown };
        if (typeof block.text === 'string') parts.push(block.text);
        else if (block.type === 'tool_result') add(block.content);
        else if (block.type === 'tool_use') parts.push(JSON.stringify(part));
      }
    }
  };
  if (format === 'completion') {
    add(Array.isArray(body.prompt) ? body.prompt.join('') : body.prompt);
    return { text: parts.join('\n'), parts, messages: 1 };
  }
  if (format === 'messages') add(body.system);
  if (Array.isArray(body.tools) && body.tools.length > 0) parts.push(JSON.stringify(body.tools));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    const { content, tool_calls: calls } = message as { content?: unknown; tool_calls?: unknown };
    add(content);
    if (Array.isArray(calls) && calls.length > 0) parts.push(JSON.stringify(calls));
  }
  return { text: parts.join('\n'), parts, messages: messages.length + (body.system ? 1 : 0) };
}

/**
 * Input tokens of a request counted as its upstream counts them, for billing a stream that ended
 * before the upstream reported usage (an OpenAI stream reports it only in its last chunk): the
 * tokenizer's count of the prompt text plus the per-message framing.
 *
 * @example
 * await countInputTokens('chat', { messages: [{ role: 'user', content: 'Hello' }] }); // 1 + 3 + 3
 */
export async function countInputTokens(
  format: 'chat' | 'completion' | 'messages',
  body: Record<string, unknown>,
): Promise<number> {
  const prompt = promptOf(format, body);
  // Each piece on its own, as the upstream counts each message's content on its own.
  let text = 0;
  for (const part of prompt.parts) text += await countTokens(part);
  if (format === 'completion') return text;
  return text + prompt.messages * FRAMING_PER_MESSAGE + REPLY_PRIMING;
}

/** Estimated input tokens of a request, for the reservation. */
export function estimateInputTokens(
  format: 'chat' | 'completion' | 'messages',
  body: Record<string, unknown>,
): number {
  const prompt = promptOf(format, body);
  return estimateTokens(prompt.text) + prompt.messages * TOKENS_PER_MESSAGE + 3;
}

/**
 * Token counts for metering. The reservation uses a cheap character estimate (it is corrected at
 * settlement); a stream cut short is billed from a real tokenizer count of what was produced
 * (DESIGN.md Text generation), with gpt-tokenizer loaded on first use so the hot path never pays
 * for its vocabulary.
 */

/** Per-message framing tokens in chat formats (role markers), as OpenAI documents ~3–4. */
const TOKENS_PER_MESSAGE = 4;

/** A cheap upper-leaning estimate: ~4 characters per token for English text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens> | null = null;

/**
 * Counts tokens with gpt-tokenizer (o200k_base).
 *
 * @example
 * await countTokens('Hello world'); // 2
 */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  tokenizer ??= import('gpt-tokenizer').then((m) => m.countTokens as CountTokens);
  return (await tokenizer)(text);
}

/** The prompt text of a request in any client format, and its message count. */
export function promptOf(
  format: 'chat' | 'completion' | 'messages',
  body: Record<string, unknown>,
): { text: string; messages: number } {
  const parts: string[] = [];
  const add = (content: unknown) => {
    if (typeof content === 'string') parts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = (part as { text?: unknown }).text;
        if (typeof text === 'string') parts.push(text);
      }
    }
  };
  if (format === 'completion') {
    add(Array.isArray(body.prompt) ? body.prompt.join('') : body.prompt);
    return { text: parts.join('\n'), messages: 1 };
  }
  if (format === 'messages') add(body.system);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) add((message as { content?: unknown }).content);
  return { text: parts.join('\n'), messages: messages.length + (body.system ? 1 : 0) };
}

/** Estimated input tokens of a request, for the reservation. */
export function estimateInputTokens(
  format: 'chat' | 'completion' | 'messages',
  body: Record<string, unknown>,
): number {
  const prompt = promptOf(format, body);
  return estimateTokens(prompt.text) + prompt.messages * TOKENS_PER_MESSAGE + 3;
}

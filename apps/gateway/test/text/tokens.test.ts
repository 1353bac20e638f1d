import { zCreateMessageRequest } from '@modelgate/core/zod';
import { countTokens as wholeCount } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { unsafeTextProblem } from '../../src/http/unsafe-text.js';
import { countInputTokens, countTokens, tokenizerPieces } from '../../src/text/tokens.js';

describe('countTokens', () => {
  it('counts long text in pieces exactly as the tokenizer counts it whole', async () => {
    const text = Array.from({ length: 3_000 }, (_, i) => `word${i} and some more text,`).join(' ');
    expect(tokenizerPieces(text).length).toBeGreaterThan(10);
    expect(await countTokens(text)).toBe(wholeCount(text));
  });

  it('cuts a run without spaces at the limit, never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(70_000);
    const pieces = tokenizerPieces(emoji);
    expect(pieces.join('')).toBe(emoji);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(2_048);
      expect(unsafeTextProblem(piece)).toBeNull();
    }
  });

  it('counts a 70,000-emoji run (one "word", quadratic for the tokenizer whole)', async () => {
    expect(await countTokens('😀'.repeat(70_000))).toBeGreaterThanOrEqual(70_000);
  });
});

describe('countInputTokens of vendor blocks', () => {
  it('counts the readable text of a document and a search result, not a PDF', async () => {
    const words = 'The quarterly report says revenue grew by forty-two percent. '.repeat(20);
    const request = (content: unknown[]) =>
      ({
        format: 'messages',
        body: zCreateMessageRequest.parse({
          model: 'm',
          max_tokens: 8,
          messages: [{ role: 'user', content: [...content, { type: 'text', text: 'Sum up.' }] }],
        }),
      }) as const;
    const plain = await countInputTokens(request([]));
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf' } };
    expect(await countInputTokens(request([pdf]))).toBe(plain);
    const sourced = await countInputTokens(
      request([
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: words } },
        {
          type: 'search_result',
          source: 's',
          title: 't',
          content: [{ type: 'text', text: words }],
        },
      ]),
    );
    expect(sourced - plain).toBeGreaterThanOrEqual(2 * (await countTokens(words)));
  });
});

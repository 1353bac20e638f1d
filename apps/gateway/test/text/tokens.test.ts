import { countTokens as wholeCount } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { unsafeTextProblem } from '../../src/http/unsafe-text.js';
import { countTokens, tokenizerPieces } from '../../src/text/tokens.js';

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

// Deterministic "model output": the same prompt always yields the same words, so tests can assert
// on content and stop sequences. Every word is a single o200k_base token (checked at load), so one
// streamed chunk carries one token.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const CANDIDATES = (
  'the a quiet river runs under old stone bridge while light rain falls on green hills and small ' +
  'birds sing near bright morning window where paper lamp glows over wooden table with silver cup ' +
  'of warm tea beside open book about distant ocean forest city road sky cloud wind tree flower ' +
  'garden house door wall field lake mountain star moon sun night day time world life water fire ' +
  'earth air color sound voice story song dream idea plan simple clear calm soft deep long short ' +
  'new good great high low early late slow fast still gentle'
).split(' ');

function isOneToken(piece: string): boolean {
  return encode(piece).length === 1;
}

/** Words that are one token both with a leading space and capitalized at the start. */
const WORDS = CANDIDATES.filter((word) => {
  const capital = word[0]!.toUpperCase() + word.slice(1);
  return isOneToken(` ${word}`) && isOneToken(capital);
});

/** FNV-1a: a cheap, stable hash to seed the word choice. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The `count` output pieces for a seed; each piece is one token. */
export function outputPieces(seed: number, count: number): string[] {
  const pieces: string[] = [];
  let state = seed || 1;
  for (let i = 0; i < count; i++) {
    // xorshift32: deterministic, fast, good enough to look like varied text.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const word = WORDS[(state >>> 0) % WORDS.length]!;
    pieces.push(i === 0 ? word[0]!.toUpperCase() + word.slice(1) : ` ${word}`);
  }
  return pieces;
}

export interface Generation {
  /** The streamed increments, one token each (the last may be cut by a stop sequence). */
  pieces: string[];
  text: string;
  /** `stop` = natural end or a stop sequence; `length` = cut by max tokens. */
  finish: 'stop' | 'length';
  /** The stop sequence that ended the text, if any. */
  stopSequence: string | null;
}

/** The pieces covering exactly the first `length` characters (the sequence may span pieces). */
function cutPieces(all: string[], length: number): string[] {
  const pieces: string[] = [];
  let used = 0;
  for (const piece of all) {
    if (used >= length) break;
    const take = piece.slice(0, length - used);
    pieces.push(take);
    used += take.length;
  }
  return pieces;
}

/**
 * Generates the answer for a prompt: `defaultTokens` pieces unless `maxTokens` cuts it shorter
 * (finish `length`), ending early at the first stop sequence (finish `stop`, sequence excluded).
 */
export function generate(
  promptKey: string,
  defaultTokens: number,
  maxTokens: number | undefined,
  stop: string[],
  seedOffset = 0,
): Generation {
  const limit = maxTokens === undefined ? defaultTokens : Math.min(maxTokens, defaultTokens);
  const all = outputPieces(hashString(promptKey) + seedOffset, limit);
  if (stop.length > 0) {
    let text = '';
    for (let i = 0; i < all.length; i++) {
      const next = text + all[i];
      let cut = -1;
      let matched: string | null = null;
      for (const sequence of stop) {
        if (sequence.length === 0) continue;
        const at = next.indexOf(sequence);
        if (at !== -1 && (cut === -1 || at < cut)) {
          cut = at;
          matched = sequence;
        }
      }
      if (matched !== null) {
        return {
          pieces: cutPieces(all, cut),
          text: next.slice(0, cut),
          finish: 'stop',
          stopSequence: matched,
        };
      }
      text = next;
    }
  }
  const finish = maxTokens !== undefined && maxTokens < defaultTokens ? 'length' : 'stop';
  return { pieces: all, text: all.join(''), finish, stopSequence: null };
}

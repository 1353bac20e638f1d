import { describe, expect, it } from 'vitest';
import {
  findUnsafeText,
  mayHoldUnsafeText,
  unsafeTextProblem,
} from '../../src/http/unsafe-text.js';

describe('unsafe text', () => {
  it('tells NUL and unpaired surrogates from well-formed text', () => {
    expect(unsafeTextProblem('a\u0000b')).toBe('nul');
    expect(unsafeTextProblem('x\ud800')).toBe('lone_surrogate');
    expect(unsafeTextProblem('\udc00x')).toBe('lone_surrogate');
    expect(unsafeTextProblem('😀 é \u202e')).toBeNull();
  });

  it('names the dotted path of the first refused string or key', () => {
    expect(findUnsafeText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: 'a.1.c',
      problem: 'nul',
    });
    expect(findUnsafeText({ meta: { 'k\ud800': 1 } })).toEqual({
      path: 'meta.k\\ud800',
      problem: 'lone_surrogate',
    });
    expect(findUnsafeText('\u0000')).toEqual({ path: 'body', problem: 'nul' });
    expect(findUnsafeText({ a: ['fine', 1, null, true] })).toBeNull();
  });

  it('walks a body nested 200,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.problem).toBe('nul');
  });

  it('skips the walk only when the JSON text has no \\u escape that could decode to one', () => {
    expect(mayHoldUnsafeText('{"a":"b"}')).toBe(false);
    expect(mayHoldUnsafeText('{"a":"\\u0000"}')).toBe(true);
    expect(mayHoldUnsafeText('{"a":"\\uD83D\\uDE00"}')).toBe(true);
  });
});

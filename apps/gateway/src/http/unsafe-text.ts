/**
 * Text the gateway refuses wherever a client can put it (JSON bodies, query parameters, path ids):
 * U+0000, which PostgreSQL cannot store in `text` or `jsonb`, and unpaired UTF-16 surrogates
 * (`"\ud800"` in JSON), which are not Unicode text at all and cannot be encoded as UTF-8. Refusing
 * them up front turns what would be a database error (500) into a 400 naming the field.
 */
import { type ApiError, badRequest } from '../errors/api-error.js';

const NUL = '\u0000';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type UnsafeTextProblem = 'nul' | 'lone_surrogate';

/** What is wrong with one string, or null when it is fine. */
export function unsafeTextProblem(text: string): UnsafeTextProblem | null {
  if (text.includes(NUL)) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  return null;
}

/** The string with the refused characters spelled as `\uXXXX`, fit to quote in an error message. */
export function visible(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what gets spelled out here.
    /[\u0000\uD800-\uDFFF]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The 400 for a refused string at `param` (a query parameter, a path id or a dotted body path).
 *
 * @example
 * throw unsafeTextError('nul', 'metadata.note'); // 400 invalid_characters, param "metadata.note"
 */
export function unsafeTextError(problem: UnsafeTextProblem, param: string): ApiError {
  const what =
    problem === 'nul'
      ? 'contains the character U+0000, which is not accepted'
      : 'contains an unpaired UTF-16 surrogate (not valid Unicode text)';
  return badRequest(`${param} ${what}.`, param, 'invalid_characters');
}

/**
 * Could the raw JSON text hold a refused string? Inside JSON strings both can only arrive as
 * `\u` escapes (raw control characters are invalid JSON, and decoding UTF-8 never yields a lone
 * surrogate), so a body without such an escape is skipped without walking it.
 */
export function mayHoldUnsafeText(json: string): boolean {
  return json.includes('\\u0000') || /\\u[dD][89a-fA-F]/.test(json);
}

/**
 * A refused string in a parsed JSON value — keys included — with its dotted path. Walks with its
 * own stack, so a deeply nested body cannot overflow the call stack.
 *
 * @example
 * findUnsafeText({ metadata: { note: 'a\u0000' } }); // { path: 'metadata.note', problem: 'nul' }
 */
export function findUnsafeText(root: unknown): { path: string; problem: UnsafeTextProblem } | null {
  // Each entry links to its parent, so a path is only spelled out for the string refused.
  type Entry = { value: unknown; key: string | null; parent: Entry | null };
  const pathOf = (entry: Entry | null, key?: string) => {
    const segments: string[] = key === undefined ? [] : [key];
    for (let e = entry; e?.key != null; e = e.parent) segments.push(e.key);
    return segments.reverse().map(visible).join('.') || 'body';
  };
  const stack: Entry[] = [{ value: root, key: null, parent: null }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { value } = entry;
    if (typeof value === 'string') {
      const problem = unsafeTextProblem(value);
      if (problem) return { path: pathOf(entry), problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], key: String(i), parent: entry });
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const problem = unsafeTextProblem(key);
        if (problem) return { path: pathOf(entry, key), problem };
        stack.push({ value: item, key, parent: entry });
      }
    }
  }
  return null;
}

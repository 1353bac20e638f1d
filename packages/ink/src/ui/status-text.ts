// The status line's text, shortened to fit the terminal's width.

export interface StatusParts {
  model: string;
  baseUrl: string;
  /** e.g. `1,234 tokens`. */
  tokens: string;
  /** e.g. `99.9 credits`, `unlimited`. */
  credits: string;
  /** What the keys do now, e.g. `Esc to stop`. */
  hint: string;
}

/**
 * Left and right parts that fit `columns` together (with at least one space between them). What
 * goes first when the line is too long: the gateway's address, then the token count, then the
 * hint; the model and the credits stay (cut with `…` only on a very narrow terminal).
 *
 * @example
 * ```ts
 * fitStatusLine({ model: 'gpt-4o', baseUrl: 'http://localhost:8080', tokens: '12 tokens', credits: '99 credits', hint: 'Enter to send' }, 80);
 * // → { left: 'gpt-4o · localhost:8080 · 12 tokens · 99 credits', right: 'Enter to send' }
 * ```
 */
export function fitStatusLine(
  parts: StatusParts,
  columns: number,
): { left: string; right: string } {
  const host = parts.baseUrl.replace(/^https?:\/\//, '');
  const attempts: [string[], string][] = [
    [[parts.model, host, parts.tokens, parts.credits], parts.hint],
    [[parts.model, parts.tokens, parts.credits], parts.hint],
    [[parts.model, parts.credits], parts.hint],
    [[parts.model, parts.credits], ''],
  ];
  for (const [left, right] of attempts) {
    const text = left.join(' · ');
    if (text.length + (right ? right.length + 1 : 0) <= columns) return { left: text, right };
  }
  const text = `${parts.model} · ${parts.credits}`;
  return { left: `${text.slice(0, Math.max(0, columns - 1))}…`, right: '' };
}

// Keeps a streaming text within the terminal's height, so Ink never has to clear the screen.

/**
 * The end of `text` that takes at most `maxRows` rows at `columns` characters a row, with `…`
 * in front when something was cut.
 *
 * @example
 * ```ts
 * tailThatFits('a\nb\nc', 80, 2); // → '…b\nc'
 * ```
 */
export function tailThatFits(text: string, columns: number, maxRows: number): string {
  if (!Number.isFinite(maxRows)) return text;
  const rowsLeft = Math.max(1, Math.floor(maxRows));
  const width = Math.max(1, columns);
  const lines = text.split('\n');
  const kept: string[] = [];
  let rows = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    const needed = Math.max(1, Math.ceil(line.length / width));
    if (rows + needed <= rowsLeft) {
      kept.unshift(line);
      rows += needed;
      continue;
    }
    // Part of this line still fits: keep its end.
    const room = (rowsLeft - rows) * width - 1;
    if (room > 0) kept.unshift(line.slice(line.length - room));
    return `…${kept.join('\n')}`;
  }
  return text;
}

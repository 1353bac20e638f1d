// Rows of cells as lines: padded columns for a person at a terminal, plain lines for a pipe.

export interface ColumnLayout {
  /** Pad each column to its widest cell (a terminal); else join the cells, empty ones left out. */
  aligned: boolean;
  /** The columns padded on the left when aligned (figures), by index. */
  right?: readonly number[];
}

/**
 * Lays out rows whose cells are separated by two spaces, never a tab: aligned, every row has its
 * columns at the same place; plain, a row is its non-empty cells, easy to cut or awk in a script.
 *
 * @example
 * ```ts
 * layoutColumns([['7', 'ci'], ['12', 'me']], { aligned: true, right: [0] });
 * // → [' 7  ci', '12  me']
 * ```
 */
export function layoutColumns(
  rows: readonly (readonly string[])[],
  layout: ColumnLayout,
): string[] {
  if (!layout.aligned) return rows.map((row) => row.filter((cell) => cell !== '').join('  '));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  const right = new Set(layout.right);
  return rows.map((row) =>
    row
      .map((cell, index) =>
        right.has(index) ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}

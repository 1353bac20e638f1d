/**
 * The fixed-width tables `ledger check` prints: an id and a name left-aligned, the figures
 * right-aligned, names cut at 24 characters so a long one cannot push the figures off screen.
 * @example checkTable(['key', 'name', 'used'], [['7', shortName('ci'), '120']]);
 */
export function checkTable(header: string[], lines: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [row(header), ...lines.map(row)];
}

/** A name as a table shows it: at most 24 characters, an ellipsis where it was cut. */
export function shortName(name: string): string {
  return name.length > 24 ? `${name.slice(0, 23)}…` : name;
}

/**
 * Parses a single-range `Range` header against a known size.
 * Returns `null` to serve the whole body (absent, malformed or multi-range header: RFC 9110 allows
 * ignoring it), `'unsatisfiable'` for a 416, or the inclusive byte range.
 *
 * @example
 * parseRange('bytes=0-99', 1000); // { start: 0, end: 99 }
 * parseRange('bytes=-10', 1000);  // { start: 990, end: 999 }
 */
export function parseRange(
  header: string | null | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

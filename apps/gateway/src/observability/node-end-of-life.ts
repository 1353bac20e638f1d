/**
 * Whether the Node.js running the gateway is past its end of life: the gateway still starts (Node
 * 20.19+ is supported until the date in the root README), but an operator should know that the
 * runtime under it no longer gets security fixes, and what to run instead.
 *
 * @example
 * const eol = endOfLifeNode(process.version, new Date());
 * if (eol) log.warn(endOfLifeMessage(eol), { node: eol.version, end_of_life: eol.endOfLife });
 * // on Node 20.20.2 after 2026-04-30:
 * // "Node v20.20.2 is past end of life since 2026-04-30 (no more security fixes): run the gateway on Node 24 LTS (or 22)"
 */

/**
 * The last day of each release line, from the Node.js release schedule (nodejs.org/en/about/previous-releases).
 * Odd lines live six months after their release; even lines become LTS and live 30 months.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/** What to run instead: the active LTS line, and the maintenance one. */
export const RECOMMENDED_NODE = 'Node 24 LTS (or 22)';

export interface EndOfLifeNode {
  /** `process.version`, e.g. `v20.20.2`. */
  version: string;
  major: number;
  /** `YYYY-MM-DD`; for a line older than the table, the oldest date the table knows. */
  endOfLife: string;
}

/** The running Node's line when it is past end of life on `today` (a line newer than the table is not). */
export function endOfLifeNode(
  version: string = process.version,
  today: Date = new Date(),
): EndOfLifeNode | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major)) return null;
  const known = Object.keys(NODE_END_OF_LIFE).map(Number);
  const endOfLife =
    NODE_END_OF_LIFE[major] ??
    (major < Math.min(...known) ? NODE_END_OF_LIFE[Math.min(...known)] : undefined);
  if (!endOfLife) return null;
  // The line is supported through its last day (UTC).
  return today.getTime() >= Date.parse(`${endOfLife}T00:00:00Z`) + 86_400_000
    ? { version, major, endOfLife }
    : null;
}

/** The one log line the gateway writes at start on an end-of-life Node. */
export function endOfLifeMessage(eol: EndOfLifeNode): string {
  return `Node ${eol.version} is past end of life since ${eol.endOfLife} (no more security fixes): run the gateway on ${RECOMMENDED_NODE}`;
}

/**
 * `anthropic-beta` values: a comma-separated list of flags. The provider's configured flags and
 * the client's are merged into one header, each flag once, configured ones first.
 */

/** The header's name, lower-case as Node and undici carry it. */
export const ANTHROPIC_BETA = 'anthropic-beta';

/**
 * The flags of one or more header values, trimmed, without empties and duplicates, in order.
 *
 * @example
 * betaFlags('a, b', 'b,c'); // ['a', 'b', 'c']
 */
export function betaFlags(...values: ReadonlyArray<string | undefined>): string[] {
  const flags = new Set<string>();
  for (const value of values) {
    if (value === undefined) continue;
    for (const flag of value.split(',')) {
      const trimmed = flag.trim();
      if (trimmed !== '') flags.add(trimmed);
    }
  }
  return [...flags];
}

/**
 * `headers` with the configured `anthropic-beta` (any spelling of the name) merged with `extra`.
 * Without flags on either side, the header is left out.
 *
 * @example
 * withBetas({ 'Anthropic-Beta': 'a' }, ['b', 'a']); // { 'anthropic-beta': 'a,b' }
 */
export function withBetas(
  headers: Record<string, string>,
  extra: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  let configured: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === ANTHROPIC_BETA) configured = value;
    else out[name] = value;
  }
  const flags = betaFlags(configured, extra.join(','));
  if (flags.length > 0) out[ANTHROPIC_BETA] = flags.join(',');
  return out;
}

/**
 * A validated body in the key order the client sent. zod builds new objects with the keys its
 * schema names first and the others after, so a body passed upstream as validated would be the
 * client's content reshuffled: a vendor block such as `{"source":…,"type":"document"}` would go
 * out as `{"type":"document","source":…}`. Upstreams of the client's format get each object with
 * its keys where the client put them (values still the validated ones: defaults filled in,
 * unnamed keys of closed objects left out).
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function reorder(value: unknown, sent: unknown): unknown {
  // The client's own object (a fast path's body; what zod passes through untouched, such as the
  // values of open keys): nothing to reorder below, so the walk goes only as deep as the schema.
  if (value === sent) return value;
  if (Array.isArray(value)) {
    return Array.isArray(sent) ? value.map((item, i) => reorder(item, sent[i])) : value;
  }
  if (!isRecord(value) || !isRecord(sent)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) {
    if (Object.hasOwn(value, key)) out[key] = reorder(value[key], sent[key]);
  }
  // Keys the validation added (defaults), after the client's.
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) out[key] = value[key];
  return out;
}

/**
 * @returns `validated` with every object's keys in the order they have in `sent`, the body it
 *   was validated from.
 *
 * @example
 * inClientOrder({ type: 'document', source: 's' }, { source: 's', type: 'document' });
 * // { source: 's', type: 'document' }
 */
export function inClientOrder<T>(validated: T, sent: unknown): T {
  return reorder(validated, sent) as T;
}

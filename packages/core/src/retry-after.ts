// Reads the server's "wait this long" hint: `retry-after-ms` (milliseconds) first, then
// `Retry-After` as seconds or an HTTP date.

/**
 * Milliseconds the server asks the client to wait, or `undefined` when it gives no usable hint.
 *
 * @example
 * ```ts
 * parseRetryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 * ```
 */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

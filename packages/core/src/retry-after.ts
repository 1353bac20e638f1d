// Reads the server's "wait this long" hint: `retry-after-ms` (milliseconds) first, then
// `Retry-After` as delta-seconds or an HTTP date. One parser for the client (fetch `Headers`) and
// the gateway (undici's header record for text providers, one header value for video providers).

/** Response headers as undici's `request()` gives them: lower-case names. */
export type HeaderRecord = Readonly<Record<string, string | string[] | undefined>>;

/**
 * What a caller has at hand: a fetch `Headers`, undici's header record (both read
 * `retry-after-ms`, then `retry-after`), or the value of a `Retry-After` header alone.
 */
export type RetryAfterSource = Headers | HeaderRecord | string | null | undefined;

/**
 * Milliseconds the server asks the client to wait, or `undefined` when it gives no usable hint
 * (no header, a negative number, garbage). An HTTP date in the past means 0.
 *
 * @example
 * ```ts
 * import { parseRetryAfterMs } from '@modelgate/core/retry';
 *
 * parseRetryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 * parseRetryAfterMs({ 'retry-after-ms': '150' }); // 150
 * parseRetryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT'); // 0 (a date in the past)
 * parseRetryAfterMs('soon'); // undefined
 * ```
 */
export function parseRetryAfterMs(
  source: RetryAfterSource,
  now: number = Date.now(),
): number | undefined {
  if (source === null || source === undefined) return undefined;
  if (typeof source === 'string') return retryAfterValueMs(source, now);
  const ms = headerValue(source, 'retry-after-ms');
  if (ms !== undefined) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const header = headerValue(source, 'retry-after');
  return header === undefined ? undefined : retryAfterValueMs(header, now);
}

/** A `Retry-After` value: delta-seconds or an HTTP date. */
function retryAfterValueMs(value: string, now: number): number | undefined {
  if (value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** One header's value; of a header repeated in a record, the first. */
function headerValue(headers: Headers | HeaderRecord, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Header values Node can always write. Node refuses (ERR_INVALID_CHAR) a value with a character
 * outside Latin-1 or a control character, and the answer is then lost after it was produced. A
 * value built from client input is encoded where it is made (e.g. x-modelgate-dropped-params);
 * this is the last guard on every answer the text edge writes: a value holding anything but
 * visible ASCII, space and tab is percent-encoded as UTF-8.
 */
const UNSAFE = /[^\t\x20-\x7e]/;
const UNSAFE_ALL = /[^\t\x20-\x7e]/gu;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * @example
 * safeHeaderValue('a,b'); // 'a,b'
 * safeHeaderValue('\u0100'); // '%C4%80'
 */
export function safeHeaderValue(value: string): string {
  if (!UNSAFE.test(value)) return value;
  return value.replace(UNSAFE_ALL, (ch) => {
    // A lone surrogate (one UTF-16 unit of a pair) has no UTF-8 form: U+FFFD stands for it.
    const bytes = Buffer.from(ch.length === 1 && SURROGATE.test(ch) ? '\uFFFD' : ch, 'utf8');
    let out = '';
    for (const byte of bytes) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    return out;
  });
}

/** Every value of `headers` made safe, in place. */
export function safeHeaders(headers: Record<string, string>): Record<string, string> {
  for (const name in headers) {
    const value = headers[name] as string;
    if (UNSAFE.test(value)) headers[name] = safeHeaderValue(value);
  }
  return headers;
}

// The one HMAC computation both signing and verifying use: HMAC-SHA256 over `${id}.${timestamp}.${body}`.

/** A raw request body: the exact bytes (or the exact text) that went over the wire. */
export type RawBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

/** The bytes Standard Webhooks signs. Byte bodies are kept byte-exact (never re-decoded as text). */
export function signedContent(
  id: string,
  timestamp: number,
  body: RawBody,
): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const bodyBytes =
    typeof body === 'string'
      ? encoder.encode(body)
      : body instanceof Uint8Array
        ? body
        : new Uint8Array(body);
  const content = new Uint8Array(prefix.length + bodyBytes.length);
  content.set(prefix, 0);
  content.set(bodyBytes, prefix.length);
  return content;
}

/** HMAC-SHA256 of the content under the key. */
export async function hmac(key: CryptoKey, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, content));
}

/** Compares two byte strings in time independent of where they differ (their length is not secret). */
export function timingSafeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= left[index]! ^ right[index]!;
  return difference === 0;
}

// Base64 without Buffer, so the core path runs on any runtime with atob/btoa (Node, Deno, Bun, workers).

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Encodes bytes as standard (padded) base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so very large inputs don't overflow the argument list of fromCharCode.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

/** Decodes standard padded base64; returns undefined for anything else (whitespace, url-safe, bad padding). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!STRICT_BASE64.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Whether a URL names one of the gateway's files on its CDN (`{cdn_url}/files/{id}.{ext}`): such
 * a URL is read from the blob store, never fetched over HTTP.
 */

/** A file's name on the CDN: its id and extension. */
export const CDN_FILE_NAME = /^(file-[A-Za-z0-9]+)\.(png|jpg|webp|gif)$/;

/**
 * The file id and extension a CDN URL names; null for any other URL (another host, another path).
 *
 * @example
 * cdnFileOf('http://localhost:8081/files/file-abc.png', 'http://localhost:8081'); // { id: 'file-abc', ext: 'png' }
 */
export function cdnFileOf(url: string, cdnUrl: string): { id: string; ext: string } | null {
  const base = cdnUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/files/`)) return null;
  const match = CDN_FILE_NAME.exec(url.slice(`${base}/files/`.length).split(/[?#]/)[0]!);
  return match ? { id: match[1]!, ext: match[2]! } : null;
}

import { Readable } from 'node:stream';
import { PRESIGN_EXPIRES_SECONDS } from '../../config/storage.js';
import { MIME_BY_EXT } from '../sniff.js';
import type { BlobStore } from '../store/blob-store.js';
import { parseRange } from './range.js';

/** What the CDN needs to know about a path: the blob behind it, or null (404). */
export interface CdnObject {
  sha256: string;
  size: number;
  contentType: string;
}

/** The blob a CDN name (`file-….png`, `vt_….mp4`) stands for, or null (404). */
export type CdnLookup = (name: string) => Promise<CdnObject | null>;

const IMMUTABLE = 'public, max-age=31536000, immutable';

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });
}

/** Whether an If-None-Match list matches the strong ETag (weak comparison, as RFC 9110 asks). */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * 302 to the object store's presigned URL (which serves Range itself). The redirect may be cached
 * for half the URL's lifetime, so a client never follows one that has expired.
 */
async function redirect(
  signedUrl: NonNullable<BlobStore['signedUrl']>,
  object: CdnObject,
): Promise<Response> {
  const location = await signedUrl(object.sha256, {
    contentType: object.contentType || MIME_BY_EXT.mp4!,
  });
  return new Response(null, {
    status: 302,
    headers: {
      location,
      'cache-control': `private, max-age=${Math.floor(PRESIGN_EXPIRES_SECONDS / 2)}`,
    },
  });
}

/**
 * The CDN listener's handler: serves uploaded files and finished videos from the blob store with
 * immutable caching, ETag (the SHA-256), conditional GET and single byte ranges, or redirects to a
 * presigned object-store URL when the store offers one (MODELGATE_S3_PRESIGN=1). `find` says which
 * blob the path's last segment names.
 *
 * @example
 * const serve = createCdnHandler(store);
 * cdn.get('/files/:name', (c) => serve(c.req.raw, findFile));
 */
export function createCdnHandler(
  store: BlobStore,
): (request: Request, find: CdnLookup) => Promise<Response> {
  return async (request, find) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'method not allowed', { allow: 'GET, HEAD' });
    }
    const path = new URL(request.url).pathname;
    const object = await find(path.slice(path.lastIndexOf('/') + 1));
    if (!object) return plain(404, 'not found');

    const etag = `"${object.sha256}"`;
    const common: Record<string, string> = {
      etag,
      'cache-control': IMMUTABLE,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    };
    // The ETag is the content address: a cached copy is current whatever the backend holds.
    const ifNoneMatch = request.headers.get('if-none-match');
    if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) {
      return new Response(null, { status: 304, headers: common });
    }
    if (store.signedUrl) return redirect(store.signedUrl, object);
    const size = await store.size(object.sha256);
    if (size === null) return plain(404, 'not found');
    // If-Range with another validator: the representation changed, send it whole.
    const ifRange = request.headers.get('if-range');
    const range =
      ifRange && ifRange !== etag ? null : parseRange(request.headers.get('range'), size);
    if (range === 'unsatisfiable') {
      return plain(416, 'range not satisfiable', { ...common, 'content-range': `bytes */${size}` });
    }
    const headers: Record<string, string> = {
      ...common,
      'content-type': object.contentType || MIME_BY_EXT.mp4!,
    };
    let status = 200;
    if (range) {
      status = 206;
      headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['content-length'] = String(range.end - range.start + 1);
    } else {
      headers['content-length'] = String(size);
    }
    if (request.method === 'HEAD' || size === 0) return new Response(null, { status, headers });
    const stream = await store.get(object.sha256, range ?? undefined);
    if (!stream) return plain(404, 'not found');
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
  };
}

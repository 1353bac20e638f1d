/**
 * A streaming multipart/form-data reader: parts are yielded one at a time and each part's body is a
 * stream, so an upload is never held in memory whole (Hono's parseBody buffers the entire body).
 *
 * @example
 * for await (const part of readMultipart(request.body!, boundaryOf(contentType)!)) {
 *   if (part.filename !== undefined) await store.stage(part.body);
 *   else console.log(part.name, await part.text(1024));
 * }
 */
import { BlobTooLargeError } from './store/blob-store.js';

export class MultipartError extends Error {
  readonly code = 'invalid_multipart';
}

export interface MultipartPart {
  name: string;
  /** Present (possibly empty) when the part is a file. */
  filename?: string;
  contentType?: string;
  /** The part's bytes; must be consumed (or left: the reader drains it) before the next part. */
  body: AsyncIterable<Uint8Array>;
  /** Reads the body as UTF-8 text, refusing more than `maxBytes`. */
  text(maxBytes: number): Promise<string>;
  /**
   * Reads the body whole, for a part that is used in memory (an edit's input image); throws
   * BlobTooLargeError the moment it passes `maxBytes`.
   */
  bytes(maxBytes: number): Promise<Buffer>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

/** Extracts the boundary from a `multipart/form-data; boundary=…` content type, or null. */
export function boundaryOf(contentType: string | undefined | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && boundary.length <= 70 ? boundary : null;
}

/** Parses `form-data; name="file"; filename="a.png"` into its parameters. */
function parseDisposition(value: string): Record<string, string> {
  const params: Record<string, string> = {};
  const re = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const key = m[1]!.toLowerCase();
    const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
    if (key.endsWith('*')) {
      const ext = /^[^']*'[^']*'(.*)$/.exec(raw);
      try {
        params[key.slice(0, -1)] = decodeURIComponent(ext?.[1] ?? raw);
      } catch {
        params[key.slice(0, -1)] = raw;
      }
    } else if (!(key in params)) {
      params[key] = raw;
    }
  }
  return params;
}

/** Yields the parts of a multipart body read from `source`. */
export async function* readMultipart(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
): AsyncGenerator<MultipartPart> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const iterator = source[Symbol.asyncIterator]();
  // A leading CRLF lets the first boundary match the same delimiter as the others.
  let buf: Buffer = Buffer.from(CRLF);
  let ended = false;

  async function fill(): Promise<boolean> {
    if (ended) return false;
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      return false;
    }
    buf = buf.length === 0 ? Buffer.from(next.value) : Buffer.concat([buf, next.value]);
    return true;
  }

  async function need(bytes: number): Promise<void> {
    while (buf.length < bytes) {
      if (!(await fill())) throw new MultipartError('multipart body ended early');
    }
  }

  // Skip the preamble up to the first delimiter.
  for (;;) {
    const at = buf.indexOf(delimiter);
    if (at >= 0) {
      buf = buf.subarray(at + delimiter.length);
      break;
    }
    buf = buf.subarray(Math.max(0, buf.length - delimiter.length));
    if (!(await fill())) throw new MultipartError('no multipart boundary found');
  }

  try {
    for (;;) {
      await need(2);
      if (buf[0] === 0x2d && buf[1] === 0x2d) return; // "--": the closing delimiter
      // Transport padding (spaces/tabs) may precede the CRLF after a delimiter.
      for (;;) {
        const eol = buf.indexOf(CRLF);
        if (eol >= 0) {
          if (buf.subarray(0, eol).toString('latin1').trim() !== '') {
            throw new MultipartError('malformed multipart delimiter line');
          }
          buf = buf.subarray(eol + 2);
          break;
        }
        if (buf.length > 256 || !(await fill())) throw new MultipartError('malformed multipart');
      }
      let headerEnd = buf.indexOf(HEADER_END);
      // A part with no headers starts directly with CRLF.
      while (headerEnd < 0 && !(buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a)) {
        if (buf.length > MAX_HEADER_BYTES) throw new MultipartError('multipart headers too large');
        if (!(await fill())) throw new MultipartError('multipart body ended in headers');
        headerEnd = buf.indexOf(HEADER_END);
      }
      const headers: Record<string, string> = {};
      if (headerEnd >= 0 && !(buf[0] === 0x0d && buf[1] === 0x0a)) {
        for (const line of buf.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon > 0)
            headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        buf = buf.subarray(headerEnd + 4);
      } else {
        buf = buf.subarray(2);
      }
      const disposition = parseDisposition(headers['content-disposition'] ?? '');
      if (disposition.name === undefined) {
        throw new MultipartError('multipart part without a name');
      }

      let bodyDone = false;
      async function* body(): AsyncGenerator<Uint8Array> {
        if (bodyDone) return;
        for (;;) {
          const at = buf.indexOf(delimiter);
          if (at >= 0) {
            const last = buf.subarray(0, at);
            buf = buf.subarray(at + delimiter.length);
            bodyDone = true;
            if (last.length > 0) yield last;
            return;
          }
          // Keep a tail that might be the start of a delimiter split across chunks.
          const safe = buf.length - (delimiter.length - 1);
          if (safe > 0) {
            const out = buf.subarray(0, safe);
            buf = buf.subarray(safe);
            yield out;
          }
          if (!(await fill())) throw new MultipartError('multipart body ended inside a part');
        }
      }
      const stream = body();
      const collect = async (maxBytes: number, tooLarge: () => Error) => {
        const chunks: Uint8Array[] = [];
        let total = 0;
        for await (const chunk of stream) {
          total += chunk.byteLength;
          if (total > maxBytes) throw tooLarge();
          chunks.push(chunk);
        }
        return Buffer.concat(chunks);
      };
      const part: MultipartPart = {
        name: disposition.name,
        body: stream,
        async text(maxBytes: number) {
          const tooLong = () => new MultipartError(`field ${disposition.name} too long`);
          return (await collect(maxBytes, tooLong)).toString('utf8');
        },
        bytes: (maxBytes: number) => collect(maxBytes, () => new BlobTooLargeError(maxBytes)),
      };
      if (disposition.filename !== undefined) part.filename = disposition.filename;
      if (headers['content-type'] !== undefined) part.contentType = headers['content-type'];
      yield part;
      // Drain whatever the consumer left of this part.
      for await (const _ of stream) {
        /* discard */
      }
      if (!bodyDone) throw new MultipartError('multipart part not terminated');
    }
  } finally {
    await iterator.return?.();
  }
}

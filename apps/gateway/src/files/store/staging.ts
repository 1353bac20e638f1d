import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { SNIFF_BYTES } from '../sniff.js';

/** Thrown by `stage`/`put` as soon as the stream passes `maxBytes`; nothing is kept. */
export class BlobTooLargeError extends Error {
  readonly code = 'file_too_large';
  constructor(readonly maxBytes: number) {
    super(`content exceeds ${maxBytes} bytes`);
  }
}

/** A stream written to a local temp file: its content address is known only once it has all arrived. */
export interface StagedFile {
  path: string;
  sha256: string;
  size: number;
  /** The first bytes, for type sniffing. */
  head: Uint8Array;
}

/**
 * Writes a stream to a fresh file under `tmpDir` while hashing it; stops (and deletes the file) as
 * soon as it passes `maxBytes`. Every backend stages this way: the SHA-256 that names a blob is
 * known only at the end of the stream.
 *
 * @example
 * const staged = await stageToFile('/var/lib/modelgate/files/blobs/tmp', body, 20 << 20);
 * // staged.sha256, staged.size, staged.path (the caller moves or deletes it)
 */
export async function stageToFile(
  tmpDir: string,
  source: AsyncIterable<Uint8Array>,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<StagedFile> {
  await mkdir(tmpDir, { recursive: true });
  const path = join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const out = createWriteStream(path, { flags: 'wx' });
  // Errors surface through `finished`; a listener keeps a late one (after destroy) from crashing.
  let writeError: Error | null = null;
  out.on('error', (error) => {
    writeError = error;
  });
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let written = 0;
  try {
    for await (const chunk of source) {
      written += chunk.byteLength;
      if (written > maxBytes) throw new BlobTooLargeError(maxBytes);
      if (headLength < SNIFF_BYTES) {
        headChunks.push(Buffer.from(chunk.subarray(0, SNIFF_BYTES - headLength)));
        headLength += Math.min(chunk.byteLength, SNIFF_BYTES - headLength);
      }
      hash.update(chunk);
      if (writeError) throw writeError;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => {
          out.once('drain', resolve);
          out.once('error', () => resolve());
        });
      }
    }
    out.end();
    await finished(out);
  } catch (error) {
    out.destroy();
    await finished(out).catch(() => {});
    await rm(path, { force: true });
    throw error;
  }
  return {
    path,
    sha256: hash.digest('hex'),
    size: written,
    head: new Uint8Array(Buffer.concat(headChunks)),
  };
}

/**
 * Content-addressed blob storage, and the staging every backend writes through: a stream goes to a
 * temp file, hashed as it arrives, and only then is its address known.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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

/** A byte range, both ends inclusive (as in HTTP `Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Bytes written to a staging area, hashed, not yet visible under their address. */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** The first bytes, for type sniffing before deciding to keep it. */
  head: Uint8Array;
  /** Moves the bytes to their content address (a no-op if identical bytes are already there). */
  commit(): Promise<void>;
  /** Deletes the staged bytes. */
  discard(): Promise<void>;
}

/**
 * Content-addressed blob storage: bytes live under their SHA-256, so identical uploads share bytes.
 * Two backends: the local data directory (`createDiskBlobStore`) and an S3-compatible object
 * store (`s3.ts`), which instances share.
 *
 * @example
 * const store = createDiskBlobStore('/var/lib/modelgate');
 * const { sha256, size } = await store.put(Readable.from([Buffer.from('hi')]));
 * const stream = await store.get(sha256, { start: 0, end: 0 }); // "h"
 */
export interface BlobStore {
  stage(source: AsyncIterable<Uint8Array>, options?: { maxBytes?: number }): Promise<StagedBlob>;
  put(
    source: AsyncIterable<Uint8Array>,
    options?: { maxBytes?: number },
  ): Promise<{ sha256: string; size: number }>;
  /** A stream of the blob (or one range of it), or null when absent. */
  get(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** Size of the blob, or null when absent. */
  size(sha256: string): Promise<number | null>;
  exists(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
  /**
   * A time-limited URL the object store itself serves the blob at; present only when the backend
   * can sign one and the operator asked the CDN to redirect there (MODELGATE_S3_PRESIGN=1).
   */
  signedUrl?(sha256: string, options: { contentType: string }): Promise<string>;
}

/** Wraps a staged temp file: `keep` moves it to its address, discard deletes it; either runs once. */
export function stagedBlob(file: StagedFile, keep: () => Promise<void>): StagedBlob {
  let settled = false;
  return {
    sha256: file.sha256,
    size: file.size,
    head: file.head,
    async commit() {
      if (settled) return;
      settled = true;
      try {
        await keep();
      } finally {
        await rm(file.path, { force: true });
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      await rm(file.path, { force: true });
    },
  };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Stores blobs as files under `{root}/blobs/ab/cd/<sha256>`; writes go to a temp file, then rename (atomic). */
export function createDiskBlobStore(root: string): BlobStore {
  const blobDir = join(root, 'blobs');
  const tmpDir = join(blobDir, 'tmp');

  function pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(blobDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async function size(sha256: string): Promise<number | null> {
    try {
      return (await stat(pathOf(sha256))).size;
    } catch {
      return null;
    }
  }

  async function stage(
    source: AsyncIterable<Uint8Array>,
    options: { maxBytes?: number } = {},
  ): Promise<StagedBlob> {
    const file = await stageToFile(tmpDir, source, options.maxBytes);
    return stagedBlob(file, async () => {
      if ((await size(file.sha256)) === file.size) return;
      await mkdir(join(blobDir, file.sha256.slice(0, 2), file.sha256.slice(2, 4)), {
        recursive: true,
      });
      await rename(file.path, pathOf(file.sha256));
    });
  }

  return {
    stage,
    async put(source, options) {
      const staged = await stage(source, options);
      await staged.commit();
      return { sha256: staged.sha256, size: staged.size };
    },
    async get(sha256, range) {
      if ((await size(sha256)) === null) return null;
      return createReadStream(pathOf(sha256), range ? { start: range.start, end: range.end } : {});
    },
    size,
    async exists(sha256) {
      return (await size(sha256)) !== null;
    },
    async delete(sha256) {
      await rm(pathOf(sha256), { force: true });
    },
  };
}

/** Reads a whole blob into memory (for small inputs such as images handed to providers inline). */
export async function readBlob(store: BlobStore, sha256: string): Promise<Buffer | null> {
  const stream = await store.get(sha256);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

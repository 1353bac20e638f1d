import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, createDiskBlobStore, readBlob } from '../../src/files/storage.js';

const root = await mkdtemp(join(tmpdir(), 'mg-blobs-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function collect(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('disk blob store', () => {
  const store = createDiskBlobStore(root);

  it('stores content once under its sha256 and serves ranges', async () => {
    const a = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const b = await store.put(Readable.from([Buffer.from('hello world')]));
    expect(a).toEqual(b);
    expect(a.sha256).toBe('b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9');
    expect(a.size).toBe(11);
    expect(await collect((await store.get(a.sha256, { start: 6, end: 10 }))!)).toBe('world');
    expect((await readBlob(store, a.sha256))!.toString()).toBe('hello world');
    await store.delete(a.sha256);
    expect(await store.exists(a.sha256)).toBe(false);
    expect(await store.get(a.sha256)).toBeNull();
  });

  it('stops reading past maxBytes and keeps nothing', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1024;
        yield Buffer.alloc(1024, 1);
      }
    }
    await expect(store.put(endless(), { maxBytes: 10_000 })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    expect(pulled).toBeLessThanOrEqual(11 * 1024);
    expect(await readdir(join(root, 'blobs', 'tmp'))).toEqual([]);
  });

  it('stages, exposes the head for sniffing, and discards', async () => {
    const staged = await store.stage(Readable.from([Buffer.from('GIF89a rest of file')]));
    expect(Buffer.from(staged.head).toString()).toBe('GIF89a rest ');
    await staged.discard();
    expect(await store.exists(staged.sha256)).toBe(false);
    expect(await readdir(join(root, 'blobs', 'tmp'))).toEqual([]);
  });
});

// The blob store contract, run on both backends: the local directory and a real S3-compatible
// server (s3rver on 127.0.0.1). Anything the routes, the CDN or the video engine rely on is here.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlobStore,
  BlobTooLargeError,
  createDiskBlobStore,
  readBlob,
} from '../../../src/files/store/blob-store.js';
import { createS3BlobStore } from '../../../src/files/store/s3.js';
import { startS3Server, type TestS3Server } from '../../support/s3-server.js';

const root = await mkdtemp(join(tmpdir(), 'mg-blobs-'));
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  await rm(root, { recursive: true, force: true });
});

async function collect(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Backend {
  name: string;
  /** Where staged uploads wait (local disk for both backends). */
  tmpDir: string;
  open(): BlobStore;
}

const backends: Backend[] = [
  {
    name: 'local directory',
    tmpDir: join(root, 'disk', 'blobs', 'tmp'),
    open: () => createDiskBlobStore(join(root, 'disk')),
  },
  {
    name: 'S3-compatible store',
    tmpDir: join(root, 's3-tmp'),
    open: () => createS3BlobStore(s3.settings(), join(root, 's3-tmp')),
  },
];

describe.each(backends)('blob store on the $name', (backend) => {
  let store: BlobStore;
  beforeAll(() => {
    store = backend.open();
  });

  it('stores content once under its sha256 and serves it whole and by range', async () => {
    const a = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const b = await store.put(Readable.from([Buffer.from('hello world')]));
    expect(a).toEqual(b);
    expect(a.sha256).toBe(sha256('hello world'));
    expect(a.size).toBe(11);
    expect(await store.size(a.sha256)).toBe(11);
    expect(await store.exists(a.sha256)).toBe(true);
    expect(await collect((await store.get(a.sha256))!)).toBe('hello world');
    expect(await collect((await store.get(a.sha256, { start: 6, end: 10 }))!)).toBe('world');
    // (Not `0-0`: s3rver reads an end of 0 as "no end" and sends everything; S3 itself does not.)
    expect(await collect((await store.get(a.sha256, { start: 10, end: 10 }))!)).toBe('d');
    expect((await readBlob(store, a.sha256))!.toString()).toBe('hello world');
  });

  it('answers null for a blob it does not hold, and after delete', async () => {
    const missing = sha256('never stored');
    expect(await store.get(missing)).toBeNull();
    expect(await store.get(missing, { start: 0, end: 3 })).toBeNull();
    expect(await store.size(missing)).toBeNull();
    expect(await store.exists(missing)).toBe(false);
    await store.delete(missing);

    const { sha256: stored } = await store.put(Readable.from([Buffer.from('to be deleted')]));
    await store.delete(stored);
    expect(await store.exists(stored)).toBe(false);
    expect(await store.get(stored)).toBeNull();
  });

  it('keeps an empty blob', async () => {
    const empty = await store.put(Readable.from([]));
    expect(empty).toEqual({ sha256: sha256(''), size: 0 });
    expect(await store.size(empty.sha256)).toBe(0);
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
    expect(await readdir(backend.tmpDir)).toEqual([]);
  });

  it('stages without publishing, exposes the head for sniffing, and discards', async () => {
    const staged = await store.stage(Readable.from([Buffer.from('GIF89a rest of file')]));
    expect(Buffer.from(staged.head).toString()).toBe('GIF89a rest ');
    expect(await store.exists(staged.sha256)).toBe(false);
    await staged.discard();
    await staged.commit();
    expect(await store.exists(staged.sha256)).toBe(false);
    expect(await readdir(backend.tmpDir)).toEqual([]);
  });

  it('publishes a staged blob on commit and cleans the staging area', async () => {
    const staged = await store.stage(Readable.from([Buffer.from('committed bytes')]));
    await staged.commit();
    expect(await store.size(staged.sha256)).toBe('committed bytes'.length);
    expect(await readdir(backend.tmpDir)).toEqual([]);
  });

  it('offers a presigned URL only when the S3 store is asked to', () => {
    expect(store.signedUrl).toBeUndefined();
  });
});

describe('S3 uploads', () => {
  it('are one PutObject signed with the blob SHA-256 as payload hash, skipped when stored', async () => {
    const store = createS3BlobStore(s3.settings(), join(root, 's3-tmp'));
    const before = s3.requests.length;
    const { sha256: stored } = await store.put(Readable.from([Buffer.from('hashed payload')]));
    await store.put(Readable.from([Buffer.from('hashed payload')]));
    const puts = s3.requests.slice(before).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.path.split('?')[0])).toEqual([`/${s3.bucket}/blobs/${stored}`]);
    expect(puts[0]!.headers['x-amz-content-sha256']).toBe(sha256('hashed payload'));
    expect(puts[0]!.headers['content-length']).toBe(String('hashed payload'.length));
    expect(puts[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 .*x-amz-content-sha256/);
  });
});

describe('S3 presigned URLs', () => {
  it('serve the blob (and its ranges) straight from the object store', async () => {
    const store = createS3BlobStore(s3.settings({ presign: true }), join(root, 's3-tmp'));
    const { sha256: stored } = await store.put(Readable.from([Buffer.from('signed bytes')]));
    const url = await store.signedUrl!(stored, { contentType: 'image/png' });
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/blobs/${stored}?`)).toBe(true);
    expect(url).toContain('X-Amz-Signature=');
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(await whole.text()).toBe('signed bytes');
    const part = await fetch(url, { headers: { range: 'bytes=7-11' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('bytes');
  });

  it('use the key prefix from the settings', async () => {
    const store = createS3BlobStore(
      s3.settings({ prefix: 'tenant-a/', presign: true }),
      join(root, 's3-tmp'),
    );
    const { sha256: stored } = await store.put(Readable.from([Buffer.from('prefixed')]));
    const url = await store.signedUrl!(stored, { contentType: 'image/png' });
    expect(new URL(url).pathname).toBe(`/${s3.bucket}/tenant-a/blobs/${stored}`);
    const other = createS3BlobStore(s3.settings(), join(root, 's3-tmp'));
    expect(await other.exists(stored)).toBe(false);
  });
});

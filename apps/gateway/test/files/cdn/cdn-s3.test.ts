// Files and videos on an S3-compatible store (s3rver on 127.0.0.1): the CDN listener streams them
// from the bucket with Range and ETag, or redirects to a presigned URL (MODELGATE_S3_PRESIGN=1);
// nothing lands in the data directory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../../src/files/store/s3.js';
import { startS3Server, type TestS3Server } from '../../support/s3-server.js';
import {
  type Json,
  PNG_1X1,
  startVideoGateway,
  upload,
  type VideoTestGateway,
  waitFinal,
} from '../../support/video-gateway.js';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3?.close());

/** Whether the bucket holds the blob, asked of the object store itself. */
async function inBucket(sha256: string): Promise<boolean> {
  return createS3BlobStore(s3.settings(), '/tmp/unused').exists(sha256);
}

describe('CDN listener on an S3-compatible store', () => {
  let gw: VideoTestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startVideoGateway({ env: { MODELGATE_S3_URL: s3.url } });
    key = (await gw.createKey()).key;
  });
  afterAll(() => gw?.close());

  it('streams an upload from the bucket with Range, ETag and 304, and deletes it there', async () => {
    const file = (await (await upload(gw, key, PNG_1X1, 'a.png')).json()) as Json;
    const whole = await fetch(file.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-length')).toBe(String(PNG_1X1.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(PNG_1X1)).toBe(true);
    const etag = whole.headers.get('etag')!;
    const sha256 = JSON.parse(etag) as string;
    expect(await inBucket(sha256)).toBe(true);
    expect(await gw.blobs()).toEqual([]);

    const part = await fetch(file.url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${PNG_1X1.length}`);
    expect(await part.text()).toBe('PNG');
    const tail = await fetch(file.url, { headers: { range: 'bytes=-4' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(PNG_1X1.subarray(-4))).toBe(true);
    const beyond = await fetch(file.url, { headers: { range: `bytes=${PNG_1X1.length}-` } });
    expect(beyond.status).toBe(416);
    const cached = await fetch(file.url, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);

    const deleted = await gw.fetch(`/v1/files/${file.id}`, { key, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await inBucket(sha256)).toBe(false);
    expect((await fetch(file.url)).status).toBe(404);
  });

  it('answers 404 when the row is there but the bucket lost the bytes', async () => {
    const file = (await (
      await upload(gw, key, Buffer.concat([PNG_1X1, Buffer.from('x')]), 'c.png')
    ).json()) as Json;
    const sha256 = JSON.parse((await fetch(file.url, { method: 'HEAD' })).headers.get('etag')!);
    await createS3BlobStore(s3.settings(), '/tmp/unused').delete(sha256);
    expect((await fetch(file.url)).status).toBe(404);
    expect((await fetch(file.url, { headers: { range: 'bytes=0-3' } })).status).toBe(404);
  });

  it('keeps a finished video in the bucket and serves it by range', async () => {
    const submitted = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'wan-2-6', prompt: 'a bucket' },
    });
    const { task_id } = (await submitted.json()) as Json;
    const task = await waitFinal(gw, key, task_id);
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    const mp4 = await fetch(task.video.url);
    expect(mp4.status).toBe(200);
    const bytes = Buffer.from(await mp4.arrayBuffer());
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
    expect(await inBucket(JSON.parse(mp4.headers.get('etag')!) as string)).toBe(true);
    const range = await fetch(task.video.url, { headers: { range: 'bytes=4-7' } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('ftyp');
    expect(await gw.blobs()).toEqual([]);
  });
});

describe('CDN listener with MODELGATE_S3_PRESIGN=1', () => {
  let gw: VideoTestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startVideoGateway({
      env: { MODELGATE_S3_URL: s3.url, MODELGATE_S3_PRESIGN: '1' },
    });
    key = (await gw.createKey()).key;
  });
  afterAll(() => gw?.close());

  it('redirects to a presigned URL that serves the bytes and ranges', async () => {
    const file = (await (await upload(gw, key, PNG_1X1, 'b.png')).json()) as Json;
    const redirect = await fetch(file.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/blobs/`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(redirect.headers.get('cache-control')).toBe('private, max-age=1800');

    const followed = await fetch(file.url);
    expect(followed.status).toBe(200);
    // Presigned again for this request: the same object, signed anew (a second may have passed).
    const [followedUrl, locationUrl] = [new URL(followed.url), new URL(location)];
    expect(followedUrl.origin + followedUrl.pathname).toBe(
      locationUrl.origin + locationUrl.pathname,
    );
    expect(followedUrl.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(followed.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await followed.arrayBuffer()).equals(PNG_1X1)).toBe(true);
    const part = await fetch(file.url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('PNG');

    // A client that has the bytes revalidates against the gateway without a trip to the store.
    const etag = `"${new URL(location).pathname.split('/').pop()}"`;
    const cached = await fetch(file.url, {
      headers: { 'if-none-match': etag },
      redirect: 'manual',
    });
    expect(cached.status).toBe(304);
    expect(
      (await fetch(`${gw.cdnUrl}/files/file-unknown.png`, { redirect: 'manual' })).status,
    ).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase } from '../support/index.js';
import {
  type Json,
  PNG_1X1,
  startVideoGateway,
  upload,
  type VideoTestGateway,
} from '../support/video-gateway.js';

const ELF = Buffer.concat([
  Buffer.from('7f454c46020101000000000000000000', 'hex'),
  Buffer.alloc(64),
]);

describe.each(eachDatabase())('files on $name', (database) => {
  let gw: VideoTestGateway;
  let key: string;
  let other: string;

  beforeAll(async () => {
    gw = await startVideoGateway({ database });
    key = (await gw.createKey()).key;
    other = (await gw.createKey()).key;
  });
  afterAll(() => gw?.close());

  it('accepts a PNG named .txt as a PNG and serves it from the CDN', async () => {
    const res = await upload(gw, key, PNG_1X1, 'notes.txt');
    expect(res.status).toBe(200);
    const file = (await res.json()) as Json;
    expect(file).toMatchObject({
      object: 'file',
      size: PNG_1X1.length,
      filename: 'notes.txt',
      mime_type: 'image/png',
      purpose: 'image',
    });
    expect(file.id).toMatch(/^file-[A-Za-z0-9]{32}$/);
    expect(file.url).toBe(`${gw.cdnUrl}/files/${file.id}.png`);
    expect(Math.abs(file.created_at - Date.now() / 1000)).toBeLessThan(60);

    const cdn = await fetch(file.url);
    expect(cdn.status).toBe(200);
    expect(cdn.headers.get('content-type')).toBe('image/png');
    expect(cdn.headers.get('content-length')).toBe(String(PNG_1X1.length));
    expect(cdn.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = cdn.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Buffer.from(await cdn.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const again = await fetch(file.url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const part = await fetch(file.url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${PNG_1X1.length}`);
    expect(await part.text()).toBe('PNG');
    const bad = await fetch(file.url, { headers: { range: `bytes=${PNG_1X1.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${PNG_1X1.length}`);
    const head = await fetch(file.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG_1X1.length));
  });

  it('stores identical uploads once, scopes files to their key, and stops serving after DELETE', async () => {
    const before = (await gw.blobs()).length;
    const a = (await (await upload(gw, key, PNG_1X1, 'a.png')).json()) as Json;
    const b = (await (await upload(gw, key, PNG_1X1, 'b.png')).json()) as Json;
    expect(a.id).not.toBe(b.id);
    expect((await gw.blobs()).length).toBe(Math.max(before, 1));

    expect((await gw.fetch(`/v1/files/${a.id}`, { key: other })).status).toBe(404);
    expect((await gw.fetch(`/v1/files/${a.id}`, { key: other, method: 'DELETE' })).status).toBe(
      404,
    );
    const got = await gw.fetch(`/v1/files/${a.id}`, { key });
    expect(got.status).toBe(200);
    expect(((await got.json()) as Json).url).toBe(a.url);

    const del = await gw.fetch(`/v1/files/${a.id}`, { key, method: 'DELETE' });
    expect(await del.json()).toEqual({ id: a.id, object: 'file', deleted: true });
    expect((await fetch(a.url)).status).toBe(404);
    expect((await gw.fetch(`/v1/files/${a.id}`, { key })).status).toBe(404);
    // b still references the same bytes.
    expect((await fetch(b.url)).status).toBe(200);
  });

  it('refuses an executable named .png with 415 and keeps nothing', async () => {
    const before = await gw.blobs();
    const res = await upload(gw, key, ELF, 'photo.png');
    expect(res.status).toBe(415);
    expect(((await res.json()) as Json).error).toMatchObject({
      type: 'unsupported_media_type',
      code: 'unsupported_file_type',
    });
    expect(await gw.blobs()).toEqual(before);
  });

  it('refuses an upload over the limit with 413 while reading, keeping nothing', async () => {
    const before = await gw.blobs();
    const count = async () =>
      Number(
        (
          await gw.services.db
            .selectFrom('files')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rows = await count();
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(64 * 1024 + 10, 1)]);
    const res = await upload(gw, key, big, 'big.png');
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error).toMatchObject({
      type: 'request_too_large',
      code: 'file_too_large',
    });
    expect(await gw.blobs()).toEqual(before);
    expect(await count()).toBe(rows);

    // A chunked upload (no Content-Length) is cut off by the streaming check, not the header.
    const boundary = 'xYzBoundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nimage\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\n\r\n`,
    );
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        controller.enqueue(PNG_1X1);
      },
      pull(controller) {
        sent += 16 * 1024;
        if (sent > 16 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const chunked = await gw.fetch('/v1/files', {
      method: 'POST',
      key,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const sentWhenAnswered = sent;
    expect(chunked.status).toBe(413);
    // Answered long before the client finished sending 16 MiB.
    expect(sentWhenAnswered).toBeLessThan(16 * 1024 * 1024);
    expect(await gw.blobs()).toEqual(before);
  });

  it('validates purpose and the file part', async () => {
    const noPurpose = await upload(gw, key, PNG_1X1, 'a.png', 'video');
    expect(noPurpose.status).toBe(400);
    expect(((await noPurpose.json()) as Json).error.param).toBe('purpose');
    const form = new FormData();
    form.set('purpose', 'image');
    const missing = await gw.fetch('/v1/files', { method: 'POST', key, body: form });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Json).error.param).toBe('file');
  });
});

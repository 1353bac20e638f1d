/**
 * Where an edit's input images may come from, and what is refused before anything is reserved:
 * a `data:` URL is decoded; a public URL is fetched through the callbacks' SSRF guard (loopback,
 * private and other non-public addresses refused, no redirect followed, the upload limit as a cap,
 * the type decided by content); the gateway's own CDN URLs are read from its store without any
 * HTTP request. The fetch itself is tested against a local server on a gateway that allows
 * private addresses (MODELGATE_CALLBACK_ALLOW_PRIVATE=1, as in development).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zCreditSummary, zImagesResponse } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { expectEditedSquare, squarePng } from './pictures.js';

const EDIT = 'POST /v1/images/edits';

/** A local server answering each path as the table says, counting the requests it gets. */
function imageHost(routes: Record<string, (res: import('node:http').ServerResponse) => void>) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  return { server, hits };
}

describe('edit input images', () => {
  let gw: TestGateway;
  let strict: TestGateway;
  let host: Server;
  let hits: string[];
  let hostUrl: string;
  const png = squarePng(128);

  beforeAll(async () => {
    ({ server: host, hits } = imageHost({
      '/square.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
      '/square-named.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(png),
      '/text.png': (res) =>
        res.writeHead(200, { 'content-type': 'image/png' }).end('not a picture'),
      '/moved.png': (res) => res.writeHead(302, { location: '/square.png' }).end(),
      '/huge.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.concat([png, Buffer.alloc(300_000)]));
      },
    }));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    gw = await startTestGateway({
      env: { MODELGATE_CALLBACK_ALLOW_PRIVATE: '1', MODELGATE_MAX_UPLOAD_BYTES: '262144' },
    });
    strict = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
    await strict?.close();
    await new Promise((resolve) => host?.close(resolve));
  });

  const edit = (target: TestGateway, key: string, image_url: string) =>
    target.fetch('/v1/images/edits', {
      method: 'POST',
      key,
      json: { model: 'gpt-image-1', prompt: 'dusk', quality: 'low', images: [{ image_url }] },
    });

  async function usedUnits(target: TestGateway, key: string): Promise<number> {
    const res = await target.fetch('/v1/dashboard/billing/credit_grants', { key });
    return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
  }

  it('a data: URL is decoded', async () => {
    const { key } = await strict.createKey({ quota: 10_000_000 });
    const res = await edit(strict, key, `data:image/png;base64,${png.toString('base64')}`);
    const body = await expectOk(res, EDIT, zImagesResponse);
    expectEditedSquare(Buffer.from(body.data[0]!.b64_json!, 'base64'));
  });

  it('a URL on a host serving the picture is fetched once; its type decided by content', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    for (const path of ['/square.png', '/square-named.txt']) {
      const body = await expectOk(await edit(gw, key, `${hostUrl}${path}`), EDIT, zImagesResponse);
      expectEditedSquare(Buffer.from(body.data[0]!.b64_json!, 'base64'));
    }
    expect(hits.filter((h) => h === '/square.png')).toHaveLength(1);
    expect(await usedUnits(gw, key)).toBe(2 * 11_000);
  });

  it.each([
    ['not a picture', '/text.png', 'invalid_image', /not a PNG, JPEG, WebP or GIF/],
    [
      'a redirect',
      '/moved.png',
      'invalid_image_url',
      /answered 302 \(redirects are not followed\)/,
    ],
    ['over the upload limit', '/huge.png', 'invalid_image_url', /larger than 262144 bytes/],
    ['not there', '/nowhere.png', 'invalid_image_url', /answered 404/],
  ])('%s: a 400 naming the field, nothing charged', async (_what, path, code, message) => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const error = await expectError(await edit(gw, key, `${hostUrl}${path}`), EDIT, {
      status: 400,
      code,
      param: 'images.0.image_url',
    });
    expect(error.message).toMatch(message);
    expect(await usedUnits(gw, key)).toBe(0);
  });

  it.each([
    ['loopback', 'https://127.0.0.1/a.png', /loopback/],
    ['a private network', 'https://10.1.2.3/a.png', /private/],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data', /link_local/],
    ['localhost by name', 'https://localhost/a.png', /loopback/],
    ['plain http', 'http://example.com/a.png', /must be https/],
    ['another scheme', 'ftp://example.com/a.png', /must be https/],
  ])(
    'without the development switch, %s is refused before any connection',
    async (_what, url, message) => {
      const { key } = await strict.createKey({ quota: 10_000_000 });
      const before = hits.length;
      const error = await expectError(await edit(strict, key, url), EDIT, {
        status: 400,
        code: 'invalid_image_url',
        param: 'images.0.image_url',
      });
      expect(error.message).toMatch(message);
      expect(hits.length).toBe(before);
      expect(await usedUnits(strict, key)).toBe(0);
    },
  );

  it('the gateway’s own CDN URL is read from its store, not fetched; a deleted file is a 404', async () => {
    const { key } = await strict.createKey({ quota: 10_000_000 });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'in.png');
    form.append('purpose', 'image');
    const file = (await (
      await strict.fetch('/v1/files', { method: 'POST', key, body: form })
    ).json()) as {
      id: string;
      url: string;
    };
    // The CDN is on loopback: fetched over HTTP it would be refused as one, so this proves the store read.
    expect((await edit(strict, key, file.url)).status).toBe(200);
    await strict.fetch(`/v1/files/${file.id}`, { method: 'DELETE', key });
    await expectError(await edit(strict, key, file.url), EDIT, {
      status: 404,
      code: 'file_not_found',
      param: 'images.0.image_url',
    });
  });

  it('a multipart image over the upload limit is a 413', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(Buffer.concat([png, Buffer.alloc(300_000)]))]),
      'big.png',
    );
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'x');
    const res = await gw.fetch('/v1/images/edits', { method: 'POST', key, body: form });
    await expectError(res, EDIT, { status: 413, code: 'file_too_large' });
    expect(await usedUnits(gw, key)).toBe(0);
  });
});

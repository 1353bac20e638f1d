/**
 * Abuse below the JSON layer, against a real gateway with small limits (64 KiB uploads, 1 s for
 * headers, 2 s for a whole request): multipart bodies without a boundary, with a part that never
 * ends, with thousands of parts, or mutated at random; an upload trickling in past the request
 * timeout; headers and bodies sent too slowly; path traversal in file and task ids (API and CDN).
 * Whatever arrives: never a 5xx, never a crash, and an error in the documented shape.
 */
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { nastyShortString } from './arbitraries.js';
import {
  checkProperty,
  expectWellFormed,
  fuzzRuns,
  fuzzTimeout,
  type RawRequest,
  send,
} from './send.js';

const MAX_UPLOAD = 64 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const B = 'fuzzb';

function part(name: string, value: string | Buffer, filename?: string): Buffer {
  const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
  return Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}
const closing = Buffer.from(`--${B}--\r\n`);

/** Raw HTTP over a socket: what a slow or broken client really sends, and what comes back. */
function rawExchange(
  url: string,
  write: (socket: Socket) => Promise<void>,
): Promise<{ head: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine; the answer is what counts
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ head, body });
    });
    socket.on('connect', () => {
      write(socket).catch(reject);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `chunks` one at a time, `gapMs` apart, until the socket is closed by the server. */
async function trickle(socket: Socket, chunks: Iterable<string | Buffer>, gapMs: number) {
  for (const chunk of chunks) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(chunk);
    await sleep(gapMs);
  }
}

function expectDocumentedRefusal(head: string, body: string, status: number, code: string) {
  expect(head, body).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
  expect(head.toLowerCase()).toContain('x-request-id:');
  expect(JSON.parse(body)).toMatchObject({ error: { code, param: null } });
}

describe.each(eachDatabase())('transport abuse on $name', (database) => {
  let gw: TestGateway;
  let key: string;
  let tried = 0;
  const upload = (
    body: Buffer,
    contentType = `multipart/form-data; boundary=${B}`,
  ): RawRequest => ({
    method: 'POST',
    path: '/v1/files',
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    body,
  });

  beforeAll(async () => {
    gw = await startTestGateway({
      database,
      config: { maxUploadBytes: MAX_UPLOAD, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 },
    });
    key = (await gw.createKey()).key;
  });
  afterAll(async () => {
    console.log(`fuzz (${database.name}): ${tried} transport-level requests`);
    await gw?.close();
  });

  it('refuses multipart without a boundary (415) and a file part that never ends (413)', async () => {
    const noBoundary = upload(part('purpose', 'image'), 'multipart/form-data');
    const res = await send(gw.url, noBoundary);
    expectWellFormed(noBoundary, res);
    expect(res.status).toBe(415);

    const endless = upload(
      Buffer.concat([
        part('purpose', 'image'),
        part('file', Buffer.alloc(MAX_UPLOAD * 3, 7), 'a.png').subarray(0, -2),
      ]),
    );
    const tooLarge = await send(gw.url, endless);
    expectWellFormed(endless, tooLarge);
    expect(JSON.parse(tooLarge.text)).toMatchObject({ error: { code: 'file_too_large' } });
    tried += 2;
  });

  it('answers thousands of parts with a 400 and stays up', async () => {
    const many = upload(
      Buffer.concat([...Array.from({ length: 1_500 }, (_, i) => part(`f${i}`, 'x')), closing]),
    );
    const res = await send(gw.url, many);
    expectWellFormed(many, res);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'unknown_field', param: 'f0' } });
    const purposes = upload(
      Buffer.concat([...Array.from({ length: 5_000 }, () => part('purpose', 'image')), closing]),
    );
    expectWellFormed(purposes, await send(gw.url, purposes));
    tried += 2;
  });

  it(
    'never answers a mutated multipart upload with a 5xx',
    async () => {
      const pieces = fc.array(
        fc.oneof(
          fc.constant(part('purpose', 'image')),
          fc.constant(part('file', PNG, 'a.png')),
          fc.constant(closing),
          nastyShortString.map((s) => part('file', s, s.replace(/["\r\n]/g, ''))),
          nastyShortString.map((s) => part(s.replace(/["\r\n]/g, ''), s)),
          nastyShortString.map((s) => Buffer.from(s)),
          fc.constantFrom(
            Buffer.from(`--${B}\r\nContent-Disposition: form-data\r\n\r\n`),
            Buffer.from(`--${B}\r\n${'X-Long: '.padEnd(20_000, 'y')}\r\n\r\n`),
            Buffer.from(`--${B}\r\n\r\n`),
            Buffer.from(`--${B}`),
            Buffer.from('\r\n'),
            Buffer.from(
              `--${B}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%ED%A0%80%00.png\r\n\r\n`,
            ),
          ),
        ),
        { maxLength: 8 },
      );
      const contentType = fc.oneof(
        fc.constant(`multipart/form-data; boundary=${B}`),
        fc.constantFrom(
          `multipart/form-data; boundary="${B}"`,
          'multipart/form-data; boundary=',
          `multipart/mixed; boundary=${B}`,
          `multipart/form-data; boundary=${'b'.repeat(71)}`,
        ),
      );
      tried += await checkProperty(
        fc.tuple(pieces, contentType),
        async ([parts, type]) => {
          const req = upload(Buffer.concat(parts), type);
          expectWellFormed(req, await send(gw.url, req));
        },
        fuzzRuns(60),
      );
    },
    fuzzTimeout(fuzzRuns(60)),
  );

  it('ends an upload that trickles in past the request timeout with a 408 in the documented shape', async () => {
    const head =
      `POST /v1/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${MAX_UPLOAD}\r\n\r\n`;
    const { head: status, body } = await rawExchange(gw.url, async (socket) => {
      socket.write(head);
      socket.write(part('purpose', 'image'));
      socket.write(
        `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`,
      );
      await trickle(
        socket,
        Array.from({ length: 100 }, () => PNG),
        200,
      );
    });
    expectDocumentedRefusal(status, body, 408, 'request_timeout');
    tried++;
  });

  it('ends headers sent too slowly (slow-loris) with a 408', async () => {
    const { head, body } = await rawExchange(gw.url, (socket) =>
      trickle(
        socket,
        [
          'GET /v1/models HTTP/1.1\r\nHost: x\r\n',
          ...Array.from({ length: 100 }, (_, i) => `X-${i}: y\r\n`),
        ],
        200,
      ),
    );
    expectDocumentedRefusal(head, body, 408, 'request_timeout');
    tried++;
  });

  it('ends a JSON body that stops halfway with a 408', async () => {
    const json = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const { head, body } = await rawExchange(gw.url, async (socket) => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${json.length + 100}\r\n\r\n${json.slice(0, 10)}`,
      );
      await trickle(socket, json.slice(10), 200);
    });
    expectDocumentedRefusal(head, body, 408, 'request_timeout');
    tried++;
  });

  it('answers malformed HTTP and oversized headers in the documented shape', async () => {
    const garbage = await rawExchange(gw.url, async (socket) => {
      socket.write('GARBAGE\r\n\r\n');
    });
    expectDocumentedRefusal(garbage.head, garbage.body, 400, 'malformed_request');
    const huge = await rawExchange(gw.url, async (socket) => {
      socket.write(`GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    });
    expectDocumentedRefusal(huge.head, huge.body, 431, 'headers_too_large');
    tried += 2;
  });

  it('never serves anything outside the store for a traversing file or task id (API and CDN)', async () => {
    const stored = upload(
      Buffer.concat([part('purpose', 'image'), part('file', PNG, 'a.png'), closing]),
    );
    const created = await send(gw.url, stored);
    expect(created.status).toBe(200);
    const { id, url } = JSON.parse(created.text) as { id: string; url: string };
    const cdnBase = new URL(url);
    const name = cdnBase.pathname.split('/').pop()!;
    const traversals = [
      `..%2f${id}`,
      `..%2f..%2f..%2fetc%2fpasswd`,
      '%2e%2e%2f%2e%2e%2fpackage.json',
      `${id}%2f..%2f..%2f`,
      `..%5c${id}`,
      `${id}%00.png`,
      '....%2f%2f....%2f%2fetc%2fpasswd',
    ];
    for (const t of traversals) {
      for (const path of [
        `/v1/files/${t}`,
        `/v1/video/generations/${t}`,
        `/v1/video/generations/${t}/cancel`,
      ]) {
        const req = {
          method: path.endsWith('cancel') ? 'POST' : 'GET',
          path,
          headers: { authorization: `Bearer ${key}` },
        };
        const res = await send(gw.url, req);
        expectWellFormed(req, res);
        expect([400, 404], `${path} → ${res.status}`).toContain(res.status);
        tried++;
      }
      for (const path of [
        `/files/${t}`,
        `/files/..%2f${name}`,
        `/files/${name}%2f..%2f..%2fpackage.json`,
      ]) {
        const res = await send(cdnBase.origin, { method: 'GET', path, headers: {} });
        expect(res.status, `CDN ${path}`).toBeLessThan(500);
        expect(res.status, `CDN ${path}`).not.toBe(200);
        expect(res.text).not.toContain('"name"'); // no package.json, no passwd
        tried++;
      }
    }
  });
});

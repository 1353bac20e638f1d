/**
 * Request bodies, however they arrive on the socket: in the same packet as the head (taken from
 * the buffer at once), after it, or chunked — and the keep-alive connection serves the next
 * request either way.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** Writes raw HTTP/1.1 requests on one socket (each part in its own write) and reads responses. */
async function rawExchange(
  port: number,
  requests: Array<Array<string>>,
): Promise<Array<{ status: number; body: string }>> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = '';
  socket.on('data', (d: Buffer) => {
    buffered += d.toString('utf8');
  });
  const results: Array<{ status: number; body: string }> = [];
  for (const parts of requests) {
    buffered = '';
    for (const [i, part] of parts.entries()) {
      socket.write(part);
      // A gap between parts puts them in separate packets.
      if (i < parts.length - 1) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      const head = buffered.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(buffered.slice(0, head))?.[1];
      if (head > 0 && length && buffered.length >= head + 4 + Number(length)) {
        results.push({
          status: Number(buffered.slice(9, 12)),
          body: buffered.slice(head + 4, head + 4 + Number(length)),
        });
        break;
      }
      if (Date.now() > deadline) throw new Error(`no complete response: ${buffered}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  socket.destroy();
  return results;
}

describe('request body reading', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey({ rpm: 1_000 }));
  });
  afterAll(() => gw?.close());

  const chat = (content: string) =>
    JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], max_tokens: 4 });
  const head = (body: string, extra = '') =>
    `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

  it('head and body in one packet, then head and body apart, on one keep-alive socket', async () => {
    const a = chat('first');
    const b = chat('second, with a body that arrives after its head');
    const port = Number(new URL(gw.url).port);
    const [one, two, three] = await rawExchange(port, [[head(a) + a], [head(b), b], [head(a) + a]]);
    for (const res of [one, two, three]) {
      expect(res?.status).toBe(200);
      expect(JSON.parse(res!.body).object).toBe('chat.completion');
    }
  });

  it('a body cut short of its Content-Length in the first packet is completed from the next', async () => {
    const body = chat('split in the middle');
    const port = Number(new URL(gw.url).port);
    const [res] = await rawExchange(port, [[head(body) + body.slice(0, 20), body.slice(20)]]);
    expect(res?.status).toBe(200);
  });

  it('malformed JSON in one packet is still a 400 invalid_json', async () => {
    const body = '{"model": ';
    const port = Number(new URL(gw.url).port);
    const [res] = await rawExchange(port, [[head(body) + body]]);
    expect(res?.status).toBe(400);
    expect(JSON.parse(res!.body).error.code).toBe('invalid_json');
  });

  it('a chunked body is read whole', async () => {
    const body = chat('chunked');
    const port = Number(new URL(gw.url).port);
    const chunked =
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const hex = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const [res] = await rawExchange(port, [
      [chunked + hex(body.slice(0, 10)), `${hex(body.slice(10))}0\r\n\r\n`],
    ]);
    expect(res?.status).toBe(200);
  });
});

describe('the key cache', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: false });
  });
  afterAll(() => gw?.close());

  it('a secret refused while unknown works as soon as a key is created with it', async () => {
    const { generateApiKey } = await import('../../src/keys/key-format.js');
    const secret = generateApiKey();
    await expect(gw.services.keys.authenticate(secret)).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
    const { record } = await gw.services.keys.create({ name: 'late', quota: null, secret });
    await expect(gw.services.keys.authenticate(secret)).resolves.toMatchObject({ id: record.id });
    await gw.services.keys.revoke(record.id);
    await expect(gw.services.keys.authenticate(secret)).rejects.toMatchObject({
      code: 'revoked_api_key',
    });
  });
});

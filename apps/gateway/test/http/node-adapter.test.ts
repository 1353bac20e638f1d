/** arrivedBody against Node's real HTTP parser: when the body is taken, and when it is left. */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { arrivedBody } from '../../src/http/node-adapter.js';

interface Seen {
  atRequest: unknown;
  afterAwait: unknown;
  text: string;
}

let server: http.Server | undefined;
afterEach(() => server?.close());

/** Sends raw parts (each after the handler started) and reports what the handler saw. */
async function exchange(parts: string[]): Promise<Seen> {
  let resolveSeen!: (seen: Seen) => void;
  const seen = new Promise<Seen>((resolve) => {
    resolveSeen = resolve;
  });
  let resolveRequested!: () => void;
  const requested = new Promise<void>((resolve) => {
    resolveRequested = resolve;
  });
  server = http.createServer(async (req, res) => {
    resolveRequested();
    const atRequest = arrivedBody(req) ?? undefined; // inside the 'request' event
    await Promise.resolve(); // as the route does, after authentication's await
    const afterAwait = atRequest ?? arrivedBody(req) ?? undefined;
    let text: string;
    if (Buffer.isBuffer(afterAwait)) text = afterAwait.toString();
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      text = Buffer.concat(chunks).toString();
    }
    res.end('ok');
    resolveSeen({ atRequest, afterAwait, text });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  for (const [i, part] of parts.entries()) {
    socket.write(part);
    // The rest is sent once the handler has run, so it has surely not arrived with the head.
    if (i < parts.length - 1) await requested;
  }
  const result = await seen;
  socket.destroy();
  return result;
}

const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
const head = (extra = `Content-Length: ${Buffer.byteLength(body)}\r\n`) =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('arrivedBody', () => {
  it('takes a body that came with the head, once the parser has finished the packet', async () => {
    const seen = await exchange([head() + body]);
    // Inside the 'request' event the body is not parsed yet: nothing to take.
    expect(seen.atRequest).toBeUndefined();
    expect(Buffer.isBuffer(seen.afterAwait)).toBe(true);
    expect(seen.text).toBe(body);
  });

  it('leaves a body that has not all arrived to the stream', async () => {
    const seen = await exchange([head() + body.slice(0, 10), body.slice(10)]);
    expect(seen.afterAwait).toBeUndefined();
    expect(seen.text).toBe(body);
  });

  it('leaves a chunked body to the stream', async () => {
    const hex = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const seen = await exchange([head('Transfer-Encoding: chunked\r\n') + hex]);
    expect(seen.afterAwait).toBeUndefined();
    expect(seen.text).toBe(body);
  });
});

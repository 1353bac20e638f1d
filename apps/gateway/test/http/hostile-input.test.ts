/**
 * Inputs a spec-driven fuzzer once answered 500 to, each now a documented 4xx (on PGlite and, with
 * DATABASE_URL, on PostgreSQL: both refuse U+0000 in text): a huge max_tokens, NUL characters and
 * lone surrogates, a method a path does not have, a misspelt query parameter, a blank version header.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

const HUGE = 9007199254740991;
const chat = (extra: object) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe.each(eachDatabase())('hostile input on $name', (database) => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
    key = (await gw.createKey()).key;
  });
  afterAll(() => gw.close());

  async function expectError(res: Response, status: number, code: string, param: string | null) {
    const body = (await res.json()) as { error: { type: string; code: string; param: string } };
    expect({ status: res.status, code: body.error.code, param: body.error.param }).toEqual({
      status,
      code,
      param,
    });
  }

  it.each([
    ['/v1/chat/completions', chat({ max_tokens: HUGE })],
    ['/v1/chat/completions', chat({ max_completion_tokens: HUGE })],
    ['/v1/completions', { model: 'gpt-4o-mini', prompt: 'hi', max_tokens: HUGE }],
  ])('a max_tokens past the documented maximum is a 400 on %s', async (path, json) => {
    const res = await gw.fetch(path, { method: 'POST', key, json });
    const param = 'max_completion_tokens' in json ? 'max_completion_tokens' : 'max_tokens';
    await expectError(res, 400, 'out_of_range', param);
  });

  it('a max_tokens past the documented maximum is a 400 on /v1/messages (vendor shape)', async () => {
    const res = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json: {
        model: 'claude-haiku-4-5',
        max_tokens: HUGE,
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
  });

  it('reserves at most the model’s output limit, so a large max_tokens fits a small quota', async () => {
    // Demo models cost 4 units per output token and produce at most 4,096: ≈ 16,400 units reserved.
    // Reserving the 1,000,000 tokens asked for would need 4,000,000 units (402).
    const small = await gw.createKey({ quota: 50_000 });
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: small.key,
      json: chat({ max_tokens: 1_000_000 }),
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['/v1/video/generations?after=a%00b', 'GET', 'after'],
    ['/v1/video/generations?limit=5&status=a%00b', 'GET', 'status'],
    ['/v1/callbacks/deliveries?task_id=vt_%00', 'GET', 'task_id'],
    ['/v1/callbacks/deliveries?after=%00', 'GET', 'after'],
    ['/v1/files/file-a%00b', 'GET', 'file_id'],
    ['/v1/files/file-a%00b', 'DELETE', 'file_id'],
    ['/v1/video/generations/vt_a%00b', 'GET', 'task_id'],
    ['/v1/video/generations/vt_a%00b/cancel', 'POST', 'task_id'],
  ])('a NUL in %s (%s) is a 400 naming %s', async (path, method, param) => {
    await expectError(await gw.fetch(path, { method, key }), 400, 'invalid_characters', param);
  });

  it.each([
    ['/v1/token', 'admin', '{"name":"a\\u0000b","quota":1}', 'name'],
    ['/v1/video/generations', 'user', '{"model":"kling-v3","prompt":"a\\u0000"}', 'prompt'],
    [
      '/v1/video/generations',
      'user',
      '{"model":"kling-v3","prompt":"a cat","metadata":{"note":"x\\u0000"}}',
      'metadata.note',
    ],
    [
      '/v1/video/generations',
      'user',
      '{"model":"kling-v3","prompt":"a cat","metadata":{"note":"x\\ud800"}}',
      'metadata.note',
    ],
    [
      '/v1/video/generations',
      'user',
      '{"model":"kling-v3","prompt":"a cat","metadata":{"n\\u0000":"x"}}',
      'metadata.n\\u0000',
    ],
  ])('%s (%s key) refuses %s with a 400 naming %s', async (path, who, body, param) => {
    const res = await gw.fetch(path, {
      method: 'POST',
      key: who === 'admin' ? gw.adminKey : key,
      headers: { 'content-type': 'application/json' },
      body,
    });
    await expectError(res, 400, 'invalid_characters', param);
  });

  it('keeps a well-formed surrogate pair and an escaped backslash before u0000', async () => {
    const res = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      headers: { 'content-type': 'application/json' },
      body: '{"name":"\\ud83d\\ude00 \\\\u0000","quota":1}',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('😀 \\u0000');
  });

  it('answers a method a path does not have with 405 and Allow', async () => {
    const res = await gw.fetch('/v1/models', { method: 'DELETE', key });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await expectError(res, 405, 'method_not_allowed', null);
    const task = await gw.fetch('/v1/video/generations/vt_1', { method: 'PUT', key });
    expect(task.headers.get('allow')).toBe('GET, HEAD');
    await expectError(task, 405, 'method_not_allowed', null);
    await expectError(await gw.fetch('/v1/nope', { key }), 404, 'route_not_found', null);
  });

  it.each([
    ['/v1/video/generations?stauts=failed', 'stauts'],
    ['/v1/callbacks/deliveries?limit=5&task=vt_1', 'task'],
  ])('refuses the unknown query parameter in %s', async (path, param) => {
    await expectError(await gw.fetch(path, { key }), 400, 'unknown_parameter', param);
  });

  it('treats a blank vendor-version as absent (the alias then applies)', async () => {
    const json = {
      model: 'claude-haiku-4-5',
      max_tokens: 4,
      messages: [{ role: 'user', content: 'hi' }],
    };
    const blank = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json,
      headers: { 'vendor-version': '' },
    });
    expect(blank.status).toBe(200);
    expect(blank.headers.get('vendor-version')).toBe('2023-06-01');
    const alias = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json,
      headers: { 'vendor-version': ' ', 'anthropic-version': '2020-01-01' },
    });
    expect(alias.status).toBe(400);
  });

  it('refuses an rpm or tpm past the documented maximum (the columns are 32-bit)', async () => {
    for (const field of ['rpm', 'tpm']) {
      const res = await gw.fetch('/v1/token', {
        method: 'POST',
        key: gw.adminKey,
        json: { name: 'x', quota: 1, [field]: 2 ** 31 },
      });
      await expectError(res, 400, 'out_of_range', field);
    }
  });

  it('reads a small refused body to its end: the client sees the status and keeps the connection', async () => {
    const url = new URL(gw.url);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (d: Buffer) => {
      received += d.toString();
    });
    await new Promise<void>((done) => socket.once('connect', () => done()));
    const body = 'x'.repeat(50_000);
    // A wrong key is refused before the body is read; the body comes after the answer.
    socket.write(
      `POST /v1/files HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-wrong\r\n` +
        `Content-Type: multipart/form-data; boundary=b0\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    await vi.waitFor(() => expect(received).toContain('HTTP/1.1 401'));
    socket.write(body);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await vi.waitFor(() => expect(received).toContain('HTTP/1.1 200'));
    expect(received).not.toMatch(/connection: close/i);
    socket.destroy();
  });

  it('closes the connection when it refuses an upload before the body has arrived', async () => {
    const boundary = 'b0';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n`),
      Buffer.alloc(2_000_000, 97),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await gw.fetch('/v1/files', {
      method: 'POST',
      key,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.headers.get('connection')).toBe('close');
    await expectError(res, 400, 'invalid_multipart', null);
  });
});

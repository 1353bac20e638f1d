// client.request goes straight to the transport: it must send exactly what the generated client
// sent for the same call before, and fail the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConfig,
  createClient as createGeneratedClient,
} from '../src/generated/client/index.js';
import {
  AuthenticationError,
  createClient,
  type ModelgateClientOptions,
  ModelgateError,
  type RawRequest,
  UpstreamError,
} from '../src/index.js';
import { json, type RecordedRequest, startServer, type TestServer } from './server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** What the generated client sent for `client.request(init)` (the code this module replaced). */
async function sendWithGeneratedClient(options: ModelgateClientOptions, init: RawRequest) {
  const api = createGeneratedClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      auth: options.apiKey,
      headers: options.headers,
      throwOnError: true,
    }),
  );
  await api.request({
    method: init.method,
    url: init.path,
    body: init.body,
    query: init.query,
    headers: {
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    security: [{ scheme: 'bearer', type: 'http' }],
    parseAs: 'stream',
    throwOnError: true,
  });
}

async function record(send: () => Promise<unknown>): Promise<RecordedRequest> {
  server.handle((_req, res) => json(res, 200, {}));
  await send();
  expect(server.requests).toHaveLength(1);
  const { method, url, headers, body } = server.requests[0]!;
  return { method, url, headers, body };
}

const cases: Array<[string, Omit<ModelgateClientOptions, 'baseUrl'>, RawRequest]> = [
  [
    'a streamed chat: JSON body, query, call headers over client headers',
    { apiKey: 'sk-1', headers: { 'x-app': 'client', 'x-keep': 'k' } },
    {
      method: 'POST',
      path: '/v1/chat/completions',
      body: {
        model: 'm',
        messages: [{ role: 'user', content: 'é 😀' }],
        stream: true,
        seed: 2n ** 64n,
      },
      query: { debug: 1, q: 'a b&c/d', flag: true, skipped: undefined },
      headers: { accept: 'text/event-stream', 'x-app': 'call' },
    },
  ],
  [
    'a path without its leading slash, no body, no key',
    { headers: { 'Content-Type': 'text/plain' } },
    { method: 'GET', path: 'v1/models', headers: { 'content-type': 'application/json' } },
  ],
  [
    'the API key wins over an Authorization header',
    { apiKey: 'sk-2', headers: { authorization: 'Bearer other' } },
    { method: 'DELETE', path: '/v1/files/file-1', headers: { Authorization: 'Basic x' } },
  ],
  [
    'a caller content type replaces the JSON one',
    { apiKey: 'sk-3' },
    { method: 'POST', path: '/v1/x', body: 'text', headers: { 'content-type': 'text/plain' } },
  ],
];

describe('client.request', () => {
  it.each(cases)('sends what the generated client sent: %s', async (_name, options, init) => {
    const config = { ...options, baseUrl: `${server.url}/`, maxRetries: 0 };
    const ours = await record(() => createClient(config).request(init));
    const generated = await record(() => sendWithGeneratedClient(config, init));
    expect(ours).toEqual(generated);
  });

  it('maps a non-2xx answer to its error class, retrying 5xx before the body', async () => {
    server.handle((_req, res, attempt) =>
      attempt === 1
        ? json(
            res,
            503,
            { error: { message: 'busy', type: 'overloaded_error' } },
            {
              'retry-after-ms': '1',
            },
          )
        : json(res, 401, { error: { message: 'bad key', type: 'authentication_error' } }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: 'sk-x', maxRetries: 2 });
    const error = await client
      .request({ method: 'POST', path: '/v1/chat/completions', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toBe('bad key');
    expect(server.requests).toHaveLength(2);

    server.handle((_req, res) => json(res, 500, { error: { message: 'down' } }));
    const last = await client
      .request({ method: 'GET', path: '/v1/models', maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(last).toBeInstanceOf(UpstreamError);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a body JSON cannot encode with a ModelgateError and sends nothing', async () => {
    server.handle((_req, res) => json(res, 200, {}));
    const body: Record<string, unknown> = {};
    body.self = body;
    const error = await createClient({ baseUrl: server.url })
      .request({ method: 'POST', path: '/v1/chat/completions', body })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelgateError);
    expect((error as ModelgateError).cause).toBeInstanceOf(TypeError);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    server.handle((_req, res) => json(res, 200, {}));
    const reason = new Error('stop');
    await expect(
      createClient({ baseUrl: server.url }).request({
        method: 'GET',
        path: '/v1/models',
        signal: AbortSignal.abort(reason),
      }),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

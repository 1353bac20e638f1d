// Each error status becomes the right subclass, with the fields of both error body shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  createClient,
  InsufficientQuotaError,
  type ModelgateClient,
  ModelgateError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  UpstreamError,
  ValidationError,
} from '../src/index.js';
import { json, startServer, type TestServer } from './server.js';

let server: TestServer;
let client: ModelgateClient;

beforeAll(async () => {
  server = await startServer();
  client = createClient({ baseUrl: server.url, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => server.close());

const chatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };

const cases = [
  [400, 'invalid_request_error', 'out_of_range', 'temperature', ValidationError],
  [401, 'authentication_error', 'invalid_api_key', null, AuthenticationError],
  [402, 'insufficient_quota', 'insufficient_quota', null, InsufficientQuotaError],
  [403, 'permission_error', 'model_not_allowed', 'model', PermissionError],
  [404, 'not_found_error', 'model_not_found', 'model', NotFoundError],
  [409, 'conflict', 'idempotency_key_reused', null, ConflictError],
  [413, 'request_too_large', 'file_too_large', null, ValidationError],
  [415, 'unsupported_media_type', 'unsupported_file_type', 'file', ValidationError],
  [422, 'invalid_request_error', 'invalid_type', 'messages', ValidationError],
  [429, 'rate_limit_error', 'rate_limit_requests', null, RateLimitError],
  [500, 'api_error', null, null, UpstreamError],
  [502, 'upstream_error', null, null, UpstreamError],
  [503, 'overloaded_error', null, null, UpstreamError],
  [504, 'upstream_timeout', null, null, UpstreamError],
] as const;

describe('error mapping', () => {
  it.each(cases)('%i → %s', async (status, type, code, param, ErrorClass) => {
    server.handle((_req, res) =>
      json(
        res,
        status,
        { error: { message: `failed ${status}`, type, code, param } },
        {
          'x-request-id': `req_${status}`,
        },
      ),
    );
    const error = await client.chat.completions.create(chatBody).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ModelgateError);
    expect(error).toBeInstanceOf(Error);
    const e = error as ModelgateError;
    expect(e.name).toBe(ErrorClass.name);
    // A literal on the prototype, not the class's (minifiable) identifier.
    expect(Object.getOwnPropertyDescriptor(ErrorClass.prototype, 'name')?.value).toBe(
      ErrorClass.name,
    );
    expect(e.status).toBe(status);
    expect(e.type).toBe(type);
    expect(e.code).toBe(code);
    expect(e.param).toBe(param);
    expect(e.message).toBe(`failed ${status}`);
    expect(e.requestId).toBe(`req_${status}`);
    expect(e.headers?.get('x-request-id')).toBe(`req_${status}`);
    expect(e.body).toEqual({ error: { message: `failed ${status}`, type, code, param } });
    expect(server.requests).toHaveLength(1);
  });

  it('parses the messages error shape {type:"error", error:{type, message}}', async () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    server.handle((_req, res) => json(res, 529, body));
    const error = await client.messages
      .create({ model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    const e = error as UpstreamError;
    expect([e.status, e.type, e.message, e.code]).toEqual([
      529,
      'overloaded_error',
      'Overloaded',
      undefined,
    ]);
  });

  it('keeps a non-JSON error body as text', async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const error = (await client.models.list().catch((e: unknown) => e)) as ModelgateError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.status).toBe(502);
    expect(error.body).toBe('<h1>Bad gateway</h1>');
    expect(error.message).toContain('502');
  });

  it('a 200 with a body that is not JSON is a ModelgateError, not a SyntaxError', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":');
    });
    const error = (await client.models.list().catch((e: unknown) => e)) as ModelgateError;
    expect(error).toBeInstanceOf(ModelgateError);
    expect(error.code).toBe('invalid_response_body');
    expect(error.status).toBe(200);
  });

  it('fromBody picks the subclass from the error type when there is no status (stream events)', () => {
    const e = ModelgateError.fromBody({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.status).toBe(429);
    expect(e.message).toBe('slow down');
    expect(ModelgateError.fromBody('garbage')).toBeInstanceOf(ModelgateError);
  });

  it('an in-stream error of a type it does not know is the upstream failing (502), not the network', () => {
    // What a gateway relays when the provider breaks off an answer: OpenAI's own error type.
    const e = ModelgateError.fromBody({
      error: {
        type: 'server_error',
        message: 'The server had an error while processing your request.',
      },
    });
    expect(e).toBeInstanceOf(UpstreamError);
    expect(e.status).toBe(502);
    expect(e.type).toBe('server_error');
    expect(e.message).toBe('The server had an error while processing your request.');
  });

  it('ModelgateError.from reads a fetch Response', async () => {
    const res = new Response(
      JSON.stringify({
        error: { message: 'no', type: 'permission_error', code: 'c', param: null },
      }),
      {
        status: 403,
        headers: { 'x-request-id': 'req_x' },
      },
    );
    const e = await ModelgateError.from(res);
    expect(e).toBeInstanceOf(PermissionError);
    expect([e.status, e.code, e.requestId]).toEqual([403, 'c', 'req_x']);
  });
});

// validateResponses: drifted responses are caught with the generated zod schemas; off by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, ModelgateError } from '../src/index.js';
import * as fx from './fixtures.js';
import { json, startServer, type TestServer } from './server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const chatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
// The server drifted: `choices[0].index` became a string and `created` disappeared.
const drifted = {
  ...fx.chatCompletion,
  created: undefined,
  choices: [{ ...fx.chatCompletion.choices[0], index: 'zero' }],
};

describe('validateResponses', () => {
  it('rejects a drifted response with code response_validation_failed', async () => {
    server.handle((_req, res) => json(res, 200, drifted));
    const client = createClient({ baseUrl: server.url, validateResponses: true });
    const error = (await client.chat.completions
      .create(chatBody)
      .catch((e: unknown) => e)) as ModelgateError;
    expect(error).toBeInstanceOf(ModelgateError);
    expect(error.code).toBe('response_validation_failed');
    expect(error.status).toBe(200);
    expect(error.requestId).toBe('req_test');
    expect(['created', 'choices.0.index']).toContain(error.param);
    expect(error.message).toContain('ChatCompletion');
    expect(server.requests).toHaveLength(1);
  });

  it('accepts a valid response and returns it untouched (extra fields kept)', async () => {
    const withExtra = { ...fx.chatCompletion, system_fingerprint: 'fp_1' };
    server.handle((_req, res) => json(res, 200, withExtra));
    const client = createClient({ baseUrl: server.url, validateResponses: true });
    expect(await client.chat.completions.create(chatBody)).toEqual(withExtra);
  });

  it('is off by default: the drifted response passes through', async () => {
    server.handle((_req, res) => json(res, 200, drifted));
    const client = createClient({ baseUrl: server.url });
    const result = await client.chat.completions.create(chatBody);
    expect(result.choices[0]?.index).toBe('zero');
  });
});

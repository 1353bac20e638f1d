// streamResponse against a scripted loopback server: the event stream's end states, a replayed
// event, and a stream that stops before its final event.
import { ConnectionError, createClient, UpstreamError } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamResponse } from '../src/index.js';
import { type StreamServer, sse, sseHead, startServer, writeAwkwardly } from './server.js';

let server: StreamServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = () => createClient({ baseUrl: server.url, apiKey: 'sk-test', maxRetries: 0 });
const shell = { id: 'resp_1', object: 'response', created_at: 1, model: 'gpt-4o', output: [] };
const event = (type: string, sequence_number: number, fields: object = {}) => ({
  event: type,
  data: { type, sequence_number, ...fields },
});
const delta = (n: number, text: string) =>
  event('response.output_text.delta', n, { item_id: 'msg_1', output_index: 0, delta: text });
const message = (text: string) => ({
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});

function serve(events: Array<{ event?: string; data: unknown }>, end = true) {
  server.handle(async (_req, res) => {
    sseHead(res);
    await writeAwkwardly(res, sse(events));
    if (end) res.end();
  });
}

describe('streamResponse', () => {
  it('skips an event whose sequence_number was already seen (a replay)', async () => {
    serve([
      event('response.created', 0, { response: { ...shell, status: 'in_progress' } }),
      delta(1, 'Hel'),
      delta(1, 'Hel'),
      delta(2, 'lo'),
      event('response.completed', 3, {
        response: { ...shell, status: 'completed', output: [message('Hello')] },
      }),
    ]);
    const stream = streamResponse(client(), { model: 'gpt-4o', input: 'Hi' });
    const deltas: string[] = [];
    for await (const e of stream)
      if (e.type === 'response.output_text.delta') deltas.push(e.delta!);
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(await stream.text()).toBe('Hello');
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ stream: true, input: 'Hi' });
  });

  it('response.incomplete ends the stream with the incomplete response', async () => {
    serve([
      event('response.created', 0, { response: { ...shell, status: 'in_progress' } }),
      event('response.incomplete', 1, {
        response: {
          ...shell,
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      }),
    ]);
    const response = await streamResponse(client(), { model: 'gpt-4o' }).finalResponse();
    expect(response.status).toBe('incomplete');
  });

  it('response.failed rejects with an UpstreamError carrying the code', async () => {
    serve([
      event('response.created', 0, { response: { ...shell, status: 'in_progress' } }),
      delta(1, 'Half'),
      event('response.failed', 2, {
        response: { ...shell, status: 'failed', error: { code: 'server_error', message: 'Boom' } },
      }),
    ]);
    const failure = streamResponse(client(), { model: 'gpt-4o' }).finalResponse();
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toMatchObject({
      status: 502,
      code: 'server_error',
      message: 'Boom',
    });
  });

  it('a body that ends before the final event is a ConnectionError (stream_incomplete)', async () => {
    serve([event('response.created', 0, { response: { ...shell, status: 'in_progress' } })]);
    const failure = streamResponse(client(), { model: 'gpt-4o' }).finalResponse();
    await expect(failure).rejects.toBeInstanceOf(ConnectionError);
    await expect(failure).rejects.toMatchObject({ code: 'stream_incomplete' });
  });
});

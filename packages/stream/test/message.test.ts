// Messages streams: typed events, the finalMessage accumulator, ping, and error events.
import {
  createClient,
  type MessageStreamEvent,
  UpstreamError,
  ValidationError,
} from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamMessage } from '../src/index.js';
import { json, type StreamServer, sse, sseHead, startServer, writeAwkwardly } from './server.js';

let server: StreamServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = () => createClient({ baseUrl: server.url, apiKey: 'sk-stream', maxRetries: 0 });
const body = {
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Hi' }],
};

const start = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'claude-sonnet-4-5',
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  },
};
const events = (...middle: Array<{ event: string; data: unknown }>) =>
  sse(
    [
      { event: 'message_start', data: start },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      { event: 'ping', data: { type: 'ping' } },
      ...middle,
    ],
    '\r\n',
  );
const delta = (text: string) => ({
  event: 'content_block_delta',
  data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
});
const ending = [
  { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
  {
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  },
  { event: 'message_stop', data: { type: 'message_stop' } },
];

describe('streamMessage', () => {
  it('yields typed events and accumulates the final message', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, events(delta('Hel'), delta('lo ✨'), ...ending));
      res.end();
    });
    const stream = streamMessage(client(), body, { headers: { 'vendor-version': '2023-06-01' } });
    const types: MessageStreamEvent['type'][] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const message = await stream.finalMessage();
    expect(message).toEqual({
      ...start.message,
      content: [{ type: 'text', text: 'Hello ✨' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 5 },
    });
    expect(await stream.text()).toBe('Hello ✨');
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/messages');
    expect(req.headers['vendor-version']).toBe('2023-06-01');
    expect(JSON.parse(req.body)).toEqual({ ...body, stream: true });
  });

  it('an error event mid-stream rejects with a ModelgateError of its type', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(
        res,
        events(delta('Hel'), {
          event: 'error',
          data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        }),
      );
      res.end();
    });
    const error = await streamMessage(client(), body)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).type).toBe('overloaded_error');
    expect((error as UpstreamError).status).toBe(503);
  });

  it('a stream without message_stop is incomplete', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, events(delta('Hel')));
      res.end();
    });
    await expect(streamMessage(client(), body).finalMessage()).rejects.toMatchObject({
      code: 'stream_incomplete',
    });
  });

  it('a 400 in the messages error shape is a ValidationError', async () => {
    server.handle((_req, res) =>
      json(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: required' },
      }),
    );
    const error = await streamMessage(client(), body)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe('max_tokens: required');
  });
});

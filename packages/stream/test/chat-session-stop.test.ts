// ChatSession's stop before the first token and a stream the upstream breaks, against a scripted
// loopback server: what the session keeps, what it sends next, and how it labels the failure.
import { createClient, UpstreamError } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '../src/index.js';
import { type StreamServer, sse, sseHead, startServer } from './server.js';

let server: StreamServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const chunk = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

const until = async (ready: () => boolean) => {
  while (!ready()) await new Promise((r) => setTimeout(r, 5));
};

function session(format: 'chat' | 'messages' = 'chat') {
  const client = createClient({ baseUrl: server.url, apiKey: 'sk-test', maxRetries: 0 });
  return new ChatSession({ client, model: 'gpt-4o-mini', format });
}

describe('stop before the first token', () => {
  it('marks the user turn answered-and-stopped, so the next send alternates', async () => {
    server.handle((_req, res) => sseHead(res)); // headers, then nothing until the client goes
    const chat = session();
    const first = chat.send('Tell me a long story');
    await until(() => server.requests.length === 1);
    chat.stop();
    expect(await first).toBeNull();
    const stopped = chat.getSnapshot();
    expect(stopped.finishReason).toBe('stopped');
    expect(stopped.messages.map((m) => [m.role, m.content, m.stopped])).toEqual([
      ['user', 'Tell me a long story', undefined],
      ['assistant', '', true],
    ]);

    server.handle((_req, res) => {
      sseHead(res);
      res.end(sse([{ data: chunk('Short one.') }, { data: '[DONE]' }]));
    });
    await chat.send('Then a short one');
    const sent = JSON.parse(server.requests[0]!.body) as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages)).not.toContain('stopped');
  });

  it('on /v1/messages the empty stopped answer is left out (that format refuses an empty turn)', async () => {
    server.handle((_req, res) => sseHead(res));
    const chat = session('messages');
    const first = chat.send('One');
    await until(() => server.requests.length === 1);
    chat.stop();
    await first;
    server.handle((_req, res) => {
      res.end();
    });
    await chat.send('Two');
    const sent = JSON.parse(server.requests[0]!.body) as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a stop mid-answer keeps the text and marks it stopped', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.write(sse([{ data: chunk('Once upon') }]));
    });
    const chat = session();
    const first = chat.send('Story');
    await until(() => chat.getSnapshot().status === 'streaming');
    chat.stop();
    await first;
    expect(chat.getSnapshot().messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Once upon',
      stopped: true,
    });
  });
});

describe('an upstream failure mid-stream', () => {
  it('is an UpstreamError (502, upstream_error), not a connection failure', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.end(
        sse([
          { data: chunk('Half an ans') },
          {
            data: {
              error: {
                message: 'The upstream stream failed before completion.',
                type: 'upstream_error',
                code: null,
              },
            },
          },
        ]),
      );
    });
    const chat = session();
    await chat.send('Hi');
    const { error, status, messages } = chat.getSnapshot();
    expect(status).toBe('error');
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Half an ans' });
  });

  it('the provider’s own error type relayed mid-answer is an UpstreamError too', async () => {
    server.handle((_req, res) => {
      sseHead(res);
      res.end(
        sse([
          { data: chunk('Half') },
          { data: { error: { message: 'The server had an error.', type: 'server_error' } } },
        ]),
      );
    });
    const chat = session();
    await chat.send('Hi');
    const { error } = chat.getSnapshot();
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error?.status).toBe(502);
  });
});

// Chat and legacy completion streams against a loopback server writing SSE in awkward chunks.
import {
  AuthenticationError,
  type ChatCompletionChunk,
  ConnectionError,
  createClient,
  type ModelgateError,
  TimeoutError,
  UpstreamError,
} from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChatCompletion, streamCompletion } from '../src/index.js';
import { json, type StreamServer, sse, sseHead, startServer, writeAwkwardly } from './server.js';

let server: StreamServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function client(options: { maxRetries?: number; timeoutMs?: number } = {}) {
  return createClient({ baseUrl: server.url, apiKey: 'sk-stream', ...options });
}

const body = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user' as const, content: 'Hi' }],
  stream_options: { include_usage: true },
};

function chunk(
  content: string | undefined,
  finish: string | null = null,
  role?: string,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_726_012_687,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        delta: { ...(role ? { role } : {}), ...(content === undefined ? {} : { content }) },
        finish_reason: finish,
      },
    ],
    usage: null,
  } as ChatCompletionChunk;
}

const usageChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_726_012_687,
  model: 'gpt-4o-mini',
  choices: [],
  usage: { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 },
};

const happyStream = `: connected\r\n\r\n${sse(
  [
    { data: chunk('', null, 'assistant') },
    { data: chunk('Héllo') },
    { data: chunk(', wörld 👋') },
    { data: chunk(undefined, 'stop') },
    { data: usageChunk },
    { data: '[DONE]' },
  ],
  '\r\n',
)}`;

describe('streamChatCompletion', () => {
  it('yields every chunk and accumulates text, finish reason and the usage chunk', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, happyStream);
      res.end();
    });
    const stream = streamChatCompletion(client(), body);
    const deltas: string[] = [];
    for await (const c of stream) deltas.push(c.choices[0]?.delta.content ?? '');
    expect(deltas).toEqual(['', 'Héllo', ', wörld 👋', '', '']);
    const final = await stream.finalChatCompletion();
    expect(final).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_726_012_687,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Héllo, wörld 👋' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 },
    });
    expect(await stream.text()).toBe('Héllo, wörld 👋');

    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-stream');
    expect(req.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(req.body)).toEqual({ ...body, stream: true });
  });

  it('text() reads the stream by itself when nobody iterates', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, happyStream);
      res.end();
    });
    expect(await streamChatCompletion(client(), body).text()).toBe('Héllo, wörld 👋');
  });

  it('stops at [DONE] even if the server keeps the connection open', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, happyStream);
      // No res.end(): the client must not wait for the close.
    });
    const stream = streamChatCompletion(client(), body);
    expect(await stream.text()).toBe('Héllo, wörld 👋');
    await server.requests[0]!.closed;
  });

  it('turns a mid-stream error event into a ModelgateError after the chunks before it', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(
        res,
        sse([
          { data: chunk('partial') },
          {
            data: {
              error: {
                message: 'Upstream went away',
                type: 'upstream_error',
                code: 'upstream_disconnected',
                param: null,
              },
            },
          },
        ]),
      );
      res.end();
    });
    const stream = streamChatCompletion(client(), body);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['partial']);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).code).toBe('upstream_disconnected');
    expect((error as UpstreamError).message).toBe('Upstream went away');
    await expect(stream.finalChatCompletion()).rejects.toBe(error);
  });

  it('a stream that ends without [DONE] is incomplete', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, sse([{ data: chunk('cut') }]));
      res.end();
    });
    const error = (await streamChatCompletion(client(), body)
      .text()
      .catch((e: unknown) => e)) as ModelgateError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.code).toBe('stream_incomplete');
  });

  it('abort() stops reading and closes the connection', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, sse([{ data: chunk('first') }]));
      // …then nothing more: the client has to hang up.
    });
    const stream = streamChatCompletion(client(), body);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of stream) {
        seen.push(c.choices[0]?.delta.content ?? '');
        stream.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['first']);
    expect((error as DOMException).name).toBe('AbortError');
    await server.requests[0]!.closed;
    await expect(stream.text()).rejects.toBe(error);
  });

  it('breaking out of the loop closes the connection', async () => {
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, sse([{ data: chunk('a') }, { data: chunk('b') }]));
    });
    const stream = streamChatCompletion(client(), body);
    for await (const _ of stream) break;
    await server.requests[0]!.closed;
    await expect(stream.finalChatCompletion()).rejects.toMatchObject({ code: 'stream_closed' });
  });

  it('a user signal aborts the stream with its reason', async () => {
    // Abort once the stream is under way (a fixed sleep raced a slow machine: the abort came
    // before the request reached the server, which then saw it during the next test).
    let underWay!: () => void;
    const streaming = new Promise<void>((resolve) => {
      underWay = resolve;
    });
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(res, sse([{ data: chunk('first') }]));
      underWay();
    });
    const controller = new AbortController();
    const reason = new Error('stop');
    const stream = streamChatCompletion(client(), body, { signal: controller.signal });
    const pending = stream.text();
    await streaming;
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await server.requests[0]!.closed;
  });

  it('a 401 before the stream is an AuthenticationError and is not retried', async () => {
    server.handle((_req, res) =>
      json(res, 401, {
        error: {
          message: 'bad key',
          type: 'authentication_error',
          code: 'invalid_api_key',
          param: null,
        },
      }),
    );
    const error = await streamChatCompletion(client({ maxRetries: 3 }), body)
      .text()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
    expect((error as AuthenticationError).requestId).toBe('req_err');
    expect(server.requests).toHaveLength(1);
  });

  it('a 503 before the first byte is retried, then the stream runs', async () => {
    server.handle(async (_req, res, attempt) => {
      if (attempt === 1) {
        json(
          res,
          503,
          { error: { message: 'busy', type: 'overloaded_error', code: null, param: null } },
          { 'retry-after-ms': '5' },
        );
        return;
      }
      sseHead(res);
      await writeAwkwardly(res, happyStream);
      res.end();
    });
    expect(await streamChatCompletion(client(), body).text()).toBe('Héllo, wörld 👋');
    expect(server.requests).toHaveLength(2);
  });

  it('timeoutMs bounds the wait for the first byte only', async () => {
    // 500 ms, not less: on a loaded CI machine a local server's headers can take tens of ms.
    const timeoutMs = 500;
    server.handle(() => {});
    const error = await streamChatCompletion(client({ timeoutMs, maxRetries: 0 }), body)
      .text()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);

    // Headers at once, then a body slower than the timeout: no timeout.
    server.handle(async (_req, res) => {
      sseHead(res);
      await new Promise((resolve) => setTimeout(resolve, 2 * timeoutMs));
      await writeAwkwardly(res, happyStream);
      res.end();
    });
    expect(await streamChatCompletion(client({ timeoutMs, maxRetries: 0 }), body).text()).toBe(
      'Héllo, wörld 👋',
    );
  });
});

describe('streamCompletion (legacy)', () => {
  it('joins the text increments and keeps the usage', async () => {
    const piece = (text: string, finish: string | null = null) => ({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 1,
      model: 'gpt-3.5-turbo-instruct',
      choices: [{ text, index: 0, finish_reason: finish }],
    });
    server.handle(async (_req, res) => {
      sseHead(res);
      await writeAwkwardly(
        res,
        sse([
          { data: piece('Once') },
          { data: piece(' upon') },
          {
            data: {
              ...piece('', 'length'),
              usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
            },
          },
          { data: '[DONE]' },
        ]),
      );
      res.end();
    });
    const stream = streamCompletion(client(), { model: 'gpt-3.5-turbo-instruct', prompt: 'x' });
    const final = await stream.finalCompletion();
    expect(final.choices).toEqual([{ index: 0, text: 'Once upon', finish_reason: 'length' }]);
    expect(final.usage).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    expect(await stream.text()).toBe('Once upon');
    expect(server.requests[0]!.url).toBe('/v1/completions');
    expect(JSON.parse(server.requests[0]!.body).stream).toBe(true);
  });
});

export type { ModelgateError };

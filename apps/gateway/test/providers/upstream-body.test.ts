/**
 * The upstream call (an undici dispatch handler), driven here through its handler methods with a
 * fake controller: `collect()` reads a whole answer and must not stall on long bodies nor lose a
 * failure; `ready()` + `read()` relay a stream chunk by chunk, with backpressure, keeping every
 * chunk that arrived before a failure; the signal aborts the exchange before and after its head.
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { UpstreamCall } from '../../src/providers/text/body.js';
import { httpTarget } from '../../src/providers/text/http.js';

function fakeController() {
  const state = { paused: false, aborted: null as Error | null, resumes: 0 };
  const controller = {
    get aborted() {
      return state.aborted !== null;
    },
    get paused() {
      return state.paused;
    },
    get reason() {
      return state.aborted;
    },
    pause: () => {
      state.paused = true;
    },
    resume: () => {
      state.paused = false;
      state.resumes++;
    },
    abort: (reason: Error) => {
      state.aborted = reason;
    },
  } satisfies Dispatcher.DispatchController;
  return { state, controller };
}

/** A call whose head (200) has arrived; `data(text)` and `end()` feed its body. */
async function openCall(signal?: AbortSignal) {
  const call = new UpstreamCall(signal);
  const { state, controller } = fakeController();
  call.onRequestStart(controller);
  call.onResponseStart(controller, 200, { 'content-type': 'text/event-stream' });
  const start = await call.started;
  return {
    call,
    state,
    start,
    data: (text: string) => call.onResponseData(controller, Buffer.from(text)),
    end: () => call.onResponseEnd(),
    fail: (error: Error) => call.onResponseError(controller, error),
  };
}

/** A reader that records what it gets; `full` makes chunk() report a full consumer. */
function recorder(options: { full?: boolean } = {}) {
  const seen = { chunks: [] as string[], ended: 0, failed: [] as unknown[] };
  return {
    seen,
    reader: {
      chunk(data: Uint8Array) {
        seen.chunks.push(Buffer.from(data).toString());
        return !options.full;
      },
      end: () => void seen.ended++,
      fail: (error: unknown) => void seen.failed.push(error),
    },
  };
}

describe('UpstreamCall: the head', () => {
  it('resolves started with status and headers, skipping 1xx heads', async () => {
    const call = new UpstreamCall();
    const { controller } = fakeController();
    call.onRequestStart(controller);
    call.onResponseStart(controller, 100, {});
    call.onResponseStart(controller, 429, { 'retry-after': '3' });
    const start = await call.started;
    expect(start.status).toBe(429);
    expect(start.headers['retry-after']).toBe('3');
  });

  it('rejects started with the undici error when the exchange fails before a head', async () => {
    const call = new UpstreamCall();
    const { controller } = fakeController();
    call.onRequestStart(controller);
    const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    call.onResponseError(controller, error);
    await expect(call.started).rejects.toBe(error);
  });

  it('aborts with the signal: before dispatch starts, and while the body flows', async () => {
    const early = new AbortController();
    early.abort(new DOMException('client left', 'AbortError'));
    const call = new UpstreamCall(early.signal);
    const { state, controller } = fakeController();
    call.onRequestStart(controller);
    expect(state.aborted?.name).toBe('AbortError');

    const late = new AbortController();
    const open = await openCall(late.signal);
    late.abort(new DOMException('client left', 'AbortError'));
    expect(open.state.aborted?.message).toBe('client left');
  });
});

describe('UpstreamCall: collect()', () => {
  it('collects a body of many more chunks than the pause threshold', async () => {
    const open = await openCall();
    const done = open.call.collect();
    for (let i = 0; i < 500; i++) open.data(`${i},`);
    open.data('end');
    open.end();
    const text = (await done).toString('utf8');
    expect(text.split(',')).toHaveLength(501);
    expect(text.endsWith('499,end')).toBe(true);
    expect(open.state.paused).toBe(false);
  });

  it('resolves at once for a body that has already ended', async () => {
    const open = await openCall();
    open.data('{"ok":true}');
    open.end();
    expect((await open.call.collect()).toString()).toBe('{"ok":true}');
  });

  it('rejects when the upstream breaks before the end', async () => {
    const open = await openCall();
    const done = open.call.collect();
    open.data('{"partial":');
    open.fail(new Error('socket hang up'));
    await expect(done).rejects.toThrow('socket hang up');
  });
});

describe('UpstreamCall: ready() and read()', () => {
  it('resolves ready() on the first chunk, then delivers held and later chunks in order', async () => {
    const open = await openCall();
    const ready = open.call.ready();
    open.data('a');
    await ready;
    open.data('b');
    const { seen, reader } = recorder();
    open.call.read(reader);
    expect(seen.chunks).toEqual(['a', 'b']);
    open.data('c');
    open.end();
    expect(seen.chunks).toEqual(['a', 'b', 'c']);
    expect(seen.ended).toBe(1);
    expect(seen.failed).toEqual([]);
  });

  it('rejects ready() when the upstream breaks before the first chunk', async () => {
    const open = await openCall();
    const ready = open.call.ready();
    open.fail(new Error('connection reset'));
    await expect(ready).rejects.toThrow('connection reset');
  });

  it('keeps the chunks that came before a failure, then reports the failure once', async () => {
    const open = await openCall();
    open.data('one');
    await open.call.ready();
    open.data('two');
    open.fail(new Error('socket hang up'));
    open.fail(new Error('second report'));
    const { seen, reader } = recorder();
    open.call.read(reader);
    expect(seen.chunks).toEqual(['one', 'two']);
    expect(seen.failed).toHaveLength(1);
    expect(String(seen.failed[0])).toContain('socket hang up');
    expect(seen.ended).toBe(0);
  });

  it('pauses the upstream while the reader is full and flows again on resume()', async () => {
    const open = await openCall();
    open.data('first');
    await open.call.ready();
    const { seen, reader } = recorder({ full: true });
    open.call.read(reader);
    expect(seen.chunks).toEqual(['first']);
    expect(open.state.paused).toBe(true);
    open.call.resume();
    expect(open.state.paused).toBe(false);
    open.data('second');
    expect(open.state.paused).toBe(true);
  });

  it('holds at most 64 chunks for a reader that has not started, then pauses', async () => {
    const open = await openCall();
    open.data('0');
    await open.call.ready();
    for (let i = 1; i < 64; i++) open.data(String(i));
    expect(open.state.paused).toBe(true);
    const { seen, reader } = recorder();
    open.call.read(reader);
    expect(seen.chunks).toHaveLength(64);
    expect(open.state.paused).toBe(false);
  });

  it('ends a body that ended before anyone read it', async () => {
    const open = await openCall();
    open.data('only');
    open.end();
    await open.call.ready();
    const { seen, reader } = recorder();
    open.call.read(reader);
    expect(seen.chunks).toEqual(['only']);
    expect(seen.ended).toBe(1);
  });
});

describe('httpTarget', () => {
  it('splits the base URL once: origin for the pool, base path joined to the operation', () => {
    expect(httpTarget('https://api.openai.com/v1/', '/chat/completions', {})).toEqual({
      origin: 'https://api.openai.com',
      path: '/v1/chat/completions',
      headers: {},
    });
    expect(httpTarget('http://127.0.0.1:9090/openai/v1', '/completions', { a: 'b' })).toEqual({
      origin: 'http://127.0.0.1:9090',
      path: '/openai/v1/completions',
      headers: { a: 'b' },
    });
    expect(httpTarget('https://api.anthropic.com', '/v1/messages', {}).path).toBe('/v1/messages');
  });
});

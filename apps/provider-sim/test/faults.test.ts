import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { postJson } from './helpers.js';

let sim: Simulator;
const auth = { authorization: 'Bearer sk-test' };
const chatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
const chat = (body: Record<string, unknown> = {}) =>
  postJson(`${sim.url}/openai/v1/chat/completions`, { ...chatBody, ...body }, auth);

beforeAll(async () => {
  sim = await startSimulator();
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

describe('faults', () => {
  it('answers 429 with Retry-After for the next N requests only', async () => {
    sim.faults.add({
      kind: 'status',
      status: 429,
      retryAfter: 2,
      count: 2,
      match: { path: '/openai' },
    });
    for (let i = 0; i < 2; i++) {
      const res = await chat();
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
      expect((await res.json()).error.code).toBe('rate_limit_exceeded');
    }
    expect((await chat()).status).toBe(200);
  });

  it('matches by model and renders the provider error shape (Anthropic 529)', async () => {
    sim.faults.add({ kind: 'status', status: 529, match: { model: 'claude-busy' } });
    const h = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
    const body = { max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
    const busy = await postJson(
      `${sim.url}/anthropic/v1/messages`,
      { ...body, model: 'claude-busy' },
      h,
    );
    expect(busy.status).toBe(529);
    expect(await busy.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    const fine = await postJson(
      `${sim.url}/anthropic/v1/messages`,
      { ...body, model: 'claude-fine' },
      h,
    );
    expect(fine.status).toBe(200);
  });

  it('drops the socket mid-stream after N chunks', async () => {
    sim.faults.add({ kind: 'drop-mid-stream', afterChunks: 3, count: 1 });
    const res = await chat({ stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('hangs until the client aborts, then keeps serving', async () => {
    sim.faults.add({ kind: 'hang', count: 1, match: { path: '/openai/v1/chat' } });
    const controller = new AbortController();
    const pending = fetch(`${sim.url}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await chat()).status).toBe(200);
  });

  it('is controlled over HTTP and counts requests per route', async () => {
    await fetch(`${sim.url}/__sim/stats`, { method: 'DELETE' });
    const added = await postJson(`${sim.url}/__sim/faults`, {
      kind: 'status',
      status: 503,
      count: 1,
    });
    expect(added.status).toBe(201);
    expect((await chat()).status).toBe(503);
    expect((await chat()).status).toBe(200);
    await postJson(`${sim.url}/__sim/faults`, { kind: 'status', status: 500 });
    expect((await (await fetch(`${sim.url}/__sim/faults`)).json()).faults).toHaveLength(1);
    expect((await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })).status).toBe(204);
    expect((await chat()).status).toBe(200);
    const stats = await (await fetch(`${sim.url}/__sim/stats`)).json();
    expect(stats.routes['POST /openai/v1/chat/completions']).toBe(3);
    const bad = await postJson(`${sim.url}/__sim/faults`, { kind: 'nope' });
    expect(bad.status).toBe(400);
  });

  it('paces streams with ttftMs and tokensPerSecond without losing tokens', async () => {
    const paced = await startSimulator({ ttftMs: 10, tokensPerSecond: 500 });
    try {
      const res = await postJson(
        `${paced.url}/openai/v1/chat/completions`,
        { ...chatBody, stream: true, max_tokens: 8 },
        auth,
      );
      const lines = (await res.text()).split('\n\n').filter((l) => l.startsWith('data: {'));
      const contents = lines
        .map((l) => JSON.parse(l.slice(6)).choices[0]?.delta.content)
        .filter(Boolean);
      expect(contents).toHaveLength(8);
    } finally {
      await paced.close();
    }
  });

  it('sends the provider error event mid-stream (stream-error)', async () => {
    sim.faults.add({ kind: 'stream-error', afterChunks: 3, count: 2 });
    const openai = await (await chat({ stream: true })).text();
    const lines = openai.split('\n\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3]!.slice(6)).error.message).toBe('Overloaded');
    const h = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
    const anthropic = await postJson(
      `${sim.url}/anthropic/v1/messages`,
      { model: 'c', max_tokens: 9, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
      h,
    );
    const events = (await anthropic.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toContain('event: error');
    expect(events.at(-1)).toContain('overloaded_error');
  });

  it('delays before answering', async () => {
    sim.faults.add({ kind: 'delay', ms: 30, count: 1 });
    expect((await chat()).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
let url: string;
const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };

beforeAll(async () => {
  sim = await startSimulator();
  url = `${sim.url}/anthropic/v1/messages`;
});
afterAll(() => sim.close());

const message = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
  postJson(
    url,
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hi' }],
      ...body,
    },
    h,
  );

describe('Anthropic messages (§2)', () => {
  it('answers a message with usage', async () => {
    const res = await message({ system: 'Be brief.' });
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toBeTruthy();
    const body = await res.json();
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(body.id).toMatch(/^msg_/);
    expect(body.content[0].type).toBe('text');
    expect(body.usage.output_tokens).toBe(32);
    expect(body.usage.input_tokens).toBeGreaterThan(0);
  });

  it('stops at max_tokens and at stop sequences', async () => {
    const short = await (await message({ max_tokens: 4 })).json();
    expect(short.stop_reason).toBe('max_tokens');
    expect(short.usage.output_tokens).toBe(4);
    const full = (await (await message({})).json()).content[0].text as string;
    const stop = ` ${full.split(' ')[3]}`;
    const cut = await (await message({ stop_sequences: [stop] })).json();
    expect(cut.stop_reason).toBe('stop_sequence');
    expect(cut.stop_sequence).toBe(stop);
    expect(cut.content[0].text).toBe(full.slice(0, full.indexOf(stop)));
  });

  it('streams the exact event sequence with cumulative usage', async () => {
    const res = await message({ stream: true, max_tokens: 5 });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(5).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event);
    const start = JSON.parse(events[0]!.data);
    expect(start.message).toMatchObject({ content: [], stop_reason: null });
    expect(start.message.usage.input_tokens).toBeGreaterThan(0);
    const text = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => JSON.parse(e.data).delta.text)
      .join('');
    expect(text.length).toBeGreaterThan(0);
    const delta = JSON.parse(events.at(-2)!.data);
    expect(delta).toMatchObject({
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { output_tokens: 5 },
    });
    expect(events.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('requires x-api-key (401) and anthropic-version (400) in its error shape', async () => {
    const noKey = await message({}, { 'anthropic-version': '2023-06-01' });
    expect(noKey.status).toBe(401);
    const body = await noKey.json();
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(body.request_id).toBeTruthy();
    const noVersion = await message({}, { 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
    expect((await noVersion.json()).error.type).toBe('invalid_request_error');
  });

  it('takes the key as Authorization: Bearer too, as @anthropic-ai/sdk 1.x sends it', async () => {
    const body = {
      model: 'claude-haiku-4-5',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    };
    const bearer = await message(body, {
      authorization: 'Bearer sk-ant-test',
      'anthropic-version': '2023-06-01',
    });
    expect(bearer.status).toBe(200);
    expect((await bearer.json()).type).toBe('message');
  });

  it('validates max_tokens, temperature 0–1 and the system role', async () => {
    const noMax = await postJson(
      url,
      { model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }] },
      headers,
    );
    expect(noMax.status).toBe(400);
    expect((await noMax.json()).error.message).toContain('max_tokens');
    expect((await message({ temperature: 1.5 })).status).toBe(400);
    expect((await message({ temperature: 1 })).status).toBe(200);
    expect((await message({ messages: [{ role: 'system', content: 'x' }] })).status).toBe(400);
    expect((await message({ model: 'unknown-claude' })).status).toBe(404);
  });

  it('lists models', async () => {
    const res = await fetch(`${sim.url}/anthropic/v1/models`, { headers });
    const body = await res.json();
    expect(body.data[0]).toMatchObject({ type: 'model' });
    expect(body.has_more).toBe(false);
  });

  it('pages the model list with limit and after_id, as the real API', async () => {
    const ids = ['claude-a', 'claude-b', 'claude-c', 'claude-d', 'claude-e'];
    const own = await startSimulator({ textModels: { anthropic: ids } });
    try {
      const page = async (query: string) => {
        const res = await fetch(`${own.url}/anthropic/v1/models${query}`, { headers });
        return { status: res.status, body: await res.json() };
      };
      const first = await page('?limit=2');
      expect(first.body).toMatchObject({
        has_more: true,
        first_id: 'claude-a',
        last_id: 'claude-b',
      });
      expect(first.body.data[0]).toEqual({
        type: 'model',
        id: 'claude-a',
        display_name: 'claude-a',
        created_at: expect.any(String),
      });
      const second = await page('?limit=2&after_id=claude-b');
      expect(second.body.data.map((m: { id: string }) => m.id)).toEqual(['claude-c', 'claude-d']);
      const last = await page('?limit=2&after_id=claude-d');
      expect(last.body).toMatchObject({
        has_more: false,
        first_id: 'claude-e',
        last_id: 'claude-e',
      });
      expect((await page('')).body.data).toHaveLength(5);
      expect((await page('?limit=0')).status).toBe(400);
      expect((await page('?limit=1001')).status).toBe(400);
      own.textModels.anthropic.push('claude-f');
      expect((await page('?limit=1000')).body.data).toHaveLength(6);
    } finally {
      await own.close();
    }
  });
});

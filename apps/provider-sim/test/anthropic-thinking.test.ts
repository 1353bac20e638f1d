import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { REDACTED_THINKING_TRIGGER } from '../src/text/anthropic-thinking.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const message = (body: Record<string, unknown>) =>
  postJson(
    `${sim.url}/anthropic/v1/messages`,
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      messages: [{ role: 'user', content: 'Hi' }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      ...body,
    },
    headers,
  );

describe('Anthropic extended thinking', () => {
  it('answers a thinking block with a signature before the text, billed as output', async () => {
    const body = await (await message({})).json();
    expect(body.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text']);
    const [thinking] = body.content;
    expect(Object.keys(thinking).sort()).toEqual(['signature', 'thinking', 'type']);
    expect(thinking.thinking.length).toBeGreaterThan(0);
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const plain = await (await message({ thinking: undefined })).json();
    expect(plain.content.map((b: { type: string }) => b.type)).toEqual(['text']);
    expect(body.usage.output_tokens).toBeGreaterThan(plain.usage.output_tokens);
    const adaptive = await (await message({ thinking: { type: 'adaptive' } })).json();
    expect(adaptive.content[0].type).toBe('thinking');
  });

  it('adds a redacted_thinking block for the documented test string', async () => {
    const body = await (
      await message({ messages: [{ role: 'user', content: REDACTED_THINKING_TRIGGER }] })
    ).json();
    expect(body.content.map((b: { type: string }) => b.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
    ]);
    expect(Object.keys(body.content[1]).sort()).toEqual(['data', 'type']);
  });

  it('streams thinking_delta events, one signature_delta before the stop, then the text at the next index', async () => {
    const whole = await (await message({})).json();
    const res = await message({ stream: true });
    const events = parseSse(await res.text()).map((e) => JSON.parse(e.data));
    const types = events.map((e) => (e.delta ? `${e.type}:${e.delta.type}` : e.type));
    const firstText = types.indexOf('content_block_delta:text_delta');
    const signatureAt = types.indexOf('content_block_delta:signature_delta');
    expect(types[0]).toBe('message_start');
    expect(events[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    expect(types[signatureAt + 1]).toBe('content_block_stop');
    expect(signatureAt).toBeLessThan(firstText);
    expect(events[firstText].index).toBe(1);
    const thinking = events
      .filter((e) => e.delta?.type === 'thinking_delta')
      .map((e) => e.delta.thinking)
      .join('');
    expect(thinking).toBe(whole.content[0].thinking);
    expect(events[signatureAt].delta.signature).toBe(whole.content[0].signature);
  });
});

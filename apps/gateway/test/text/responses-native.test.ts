/**
 * `/v1/responses` on a model OpenAI serves goes to the upstream's own `/v1/responses` (the
 * simulator's OpenAI side), not through the chat pivot: the answer and its events come back as the
 * upstream wrote them, under the gateway's response id; `previous_response_id` is the gateway's
 * (the upstream is asked with the whole conversation and `store: false`); usage is billed from
 * the Responses usage; a stream the upstream breaks ends with one `response.failed`. A model of
 * another upstream still goes through the pivot. Driven by the official `openai` client.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const RESPONSES = 'POST /openai/v1/responses';
const CHAT = 'POST /openai/v1/chat/completions';

describe('responses passed through natively', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  let keyId: number;
  const routes = () => gw.simulator!.stats().routes;
  const count = (route: string) => routes()[route] ?? 0;

  beforeAll(async () => {
    gw = await startTestGateway({});
    const created = await gw.createKey();
    keyId = created.id;
    openai = new OpenAI({ apiKey: created.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it('a gpt model answers from the upstream /v1/responses under the gateway id, billed from its usage', async () => {
    const before = { responses: count(RESPONSES), chat: count(CHAT) };
    const response = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hello there' });
    expect(count(RESPONSES)).toBe(before.responses + 1);
    expect(count(CHAT)).toBe(before.chat);
    expect(response.id).toMatch(/^resp_/);
    expect(response).toMatchObject({ store: true });
    expect(response.output_text.length).toBeGreaterThan(0);
    expect((await openai.responses.retrieve(response.id)).output_text).toBe(response.output_text);
    const row = await vi.waitFor(
      async () => {
        const rows = await gw.services.db
          .selectFrom('usage')
          .selectAll()
          .where('key_id', '=', keyId)
          .execute();
        const found = rows.find((r) => r.request_id === response._request_id);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 5000, interval: 20 },
    );
    expect(Number(row.input_tokens)).toBe(response.usage!.input_tokens);
    expect(Number(row.output_tokens)).toBe(response.usage!.output_tokens);
  });

  it('previous_response_id is the gateway’s: the upstream gets the whole conversation', async () => {
    const first = await openai.responses.create({ model: 'gpt-4o', input: 'My name is Ada.' });
    const second = await openai.responses.create({
      model: 'gpt-4o',
      input: 'What is my name?',
      previous_response_id: first.id,
    });
    const alone = await openai.responses.create({
      model: 'gpt-4o',
      input: 'What is my name?',
      store: false,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.id).not.toBe(first.id);
    // The upstream counted the earlier turn and its answer too: it was sent them as items.
    expect(second.usage!.input_tokens).toBeGreaterThan(
      alone.usage!.input_tokens + first.usage!.output_tokens,
    );
    expect((await openai.responses.inputItems.list(second.id)).data).toHaveLength(3);
    // store: false is the client's to give: that answer is not kept.
    expect((await openai.responses.retrieve(alone.id).catch((e) => e)).status).toBe(404);
  });

  it('streams the upstream events in order, with the gateway id and output_text on completion', async () => {
    const before = count(RESPONSES);
    const stream = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Stream to me',
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(count(RESPONSES)).toBe(before + 1);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const first = events[0]!;
    const last = events.at(-1)!;
    if (first.type !== 'response.created' || last.type !== 'response.completed') {
      throw new Error(`unexpected ends: ${first.type} … ${last.type}`);
    }
    expect(last.response.id).toBe(first.response.id);
    expect(last.response.id).toMatch(/^resp_/);
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(last.response.output_text).toBe(text.join(''));
    expect((await openai.responses.retrieve(last.response.id)).status).toBe('completed');
  });

  it('a claude model still goes through the chat pivot', async () => {
    const before = count(RESPONSES);
    const response = await openai.responses.create({ model: 'claude-haiku-4-5', input: 'Hi' });
    expect(response.status).toBe('completed');
    expect(count(RESPONSES)).toBe(before);
  });
});

describe('a natively passed stream the upstream breaks', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  beforeAll(async () => {
    // Paced, so the head is out before the upstream drops (no failover after the first byte).
    gw = await startTestGateway({ simulator: { tokensPerSecond: 400 } });
    const created = await gw.createKey();
    openai = new OpenAI({ apiKey: created.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it('ends with one response.failed, numbered after the last event relayed', async () => {
    gw.simulator!.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 8,
      count: 1,
      match: { path: '/openai/v1/responses' },
    });
    const stream = await openai.responses.create({
      model: 'gpt-4o-mini',
      input: 'Break me',
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.filter((e) => e.type === 'response.failed')).toHaveLength(1);
    const last = events.at(-1)!;
    if (last.type !== 'response.failed') throw new Error(`ended with ${last.type}`);
    expect(last.response.id).toBe(
      events[0]!.type === 'response.created' ? events[0]!.response.id : '',
    );
    expect(last.response.error?.code).toBe('upstream_error');
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });
});

// ChatSession on /v1/responses against a real gateway and a simulator this file starts (so it can
// break a stream): the answer, usage, previous_response_id and its fallback, tool calls, stop and
// an upstream failure mid-answer.
import { createClient, type ModelgateClient, UpstreamError } from '@modelgate/core';
import { type Simulator, startSimulator } from '@modelgate/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, getMessageText, streamResponse } from '../src/index.js';
import { startTestGateway, type TestGateway } from './gateway.js';

let sim: Simulator;
let gateway: TestGateway;
let client: ModelgateClient;
/** The JSON bodies the session sent to `/v1/responses`, and each answer's status. */
const sent: { body: Record<string, unknown>; status: number }[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '127.0.0.1', tokensPerSecond: 40 });
  gateway = await startTestGateway({ simulatorUrl: sim.url });
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.url.endsWith('/v1/responses') ? await request.clone().text() : '';
    const response = await fetch(request);
    if (body !== '') sent.push({ body: JSON.parse(body), status: response.status });
    return response;
  };
  client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey, fetch: recording });
});
afterAll(async () => {
  await gateway?.close();
  await sim?.close();
});

/** The simulator answers deterministically: the non-streamed answer is the reference. */
async function reference(input: string): Promise<string> {
  const plain = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  const response = await plain.responses.create({ model: 'gpt-4o-mini', input, store: false });
  return response.output_text ?? '';
}

function session(extra: Partial<ConstructorParameters<typeof ChatSession>[0]> = {}) {
  return new ChatSession({ client, model: 'gpt-4o-mini', format: 'responses', ...extra });
}

describe('ChatSession on /v1/responses', () => {
  it('streams the answer, with usage in the chat shape and the resp_ id', async () => {
    const details: string[] = [];
    const chat = session({
      onFinish: (_message, d) => details.push(`${d.finishReason}:${d.responseId}`),
    });
    const partials: string[] = [];
    chat.subscribe(() => {
      const state = chat.getSnapshot();
      if (state.status === 'streaming') partials.push(getMessageText(state.messages.at(-1)!));
    });
    const answer = await chat.send('Tell me about kites');
    const expected = await reference('Tell me about kites');
    expect(getMessageText(answer!)).toBe(expected);
    expect(partials.filter((p) => p !== '').length).toBeGreaterThan(1);
    for (const text of partials) expect(expected.startsWith(text)).toBe(true);
    const state = chat.getSnapshot();
    expect(state.finishReason).toBe('stop');
    expect(state.responseModel).toBe('gpt-4o-mini');
    expect(state.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(state.usage?.total_tokens).toBe(
      state.usage!.prompt_tokens + state.usage!.completion_tokens,
    );
    expect(details).toEqual([expect.stringMatching(/^stop:resp_/)]);
  });

  it('continues with previous_response_id and only the new message', async () => {
    sent.length = 0;
    const chat = session({ initialMessages: [{ role: 'system', content: 'Be brief.' }] });
    const ids: string[] = [];
    chat.setOptions({ onFinish: (_m, d) => ids.push(d.responseId!) });
    await chat.send('First question');
    const second = await chat.send('Second question');
    expect(second).not.toBeNull();
    expect(sent.map((s) => s.status)).toEqual([200, 200]);
    expect(sent[0]!.body).toMatchObject({ store: true, stream: true });
    expect(sent[0]!.body).not.toHaveProperty('previous_response_id');
    expect(sent[0]!.body.input).toEqual([
      { type: 'message', role: 'system', content: 'Be brief.' },
      { type: 'message', role: 'user', content: 'First question' },
    ]);
    expect(sent[1]!.body.previous_response_id).toBe(ids[0]);
    expect(sent[1]!.body.input).toEqual([
      { type: 'message', role: 'user', content: 'Second question' },
    ]);
    // The gateway chained them: the second response's input holds the whole conversation.
    const items = await client.responses.inputItems.list(ids[1]!);
    expect(items.data.map((item) => item.role ?? item.type)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('resends the whole conversation when the stored response is gone', async () => {
    const chat = session();
    const ids: string[] = [];
    chat.setOptions({ onFinish: (_m, d) => ids.push(d.responseId!) });
    await chat.send('Remember kites');
    await client.responses.delete(ids[0]!);
    sent.length = 0;
    const answer = await chat.send('And now?');
    expect(answer).not.toBeNull();
    expect(chat.getSnapshot().error).toBeUndefined();
    expect(sent.map((s) => s.status)).toEqual([404, 200]);
    expect(sent[1]!.body).not.toHaveProperty('previous_response_id');
    expect((sent[1]!.body.input as unknown[]).length).toBe(3);
  });

  it('with store: false, every turn sends the whole conversation', async () => {
    sent.length = 0;
    const chat = session({ body: { store: false } });
    await chat.send('One');
    await chat.send('Two');
    expect(sent[1]!.body).not.toHaveProperty('previous_response_id');
    expect((sent[1]!.body.input as unknown[]).length).toBe(3);
  });

  it('surfaces a function call, takes its result and continues', async () => {
    sent.length = 0;
    const chat = session({
      body: {
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string', enum: ['Oslo'] } },
              required: ['city'],
            },
          },
        ],
      },
    });
    await chat.send('What is the get_weather in Oslo?');
    const state = chat.getSnapshot();
    expect(state.finishReason).toBe('tool_calls');
    const call = state.toolCalls[0]!;
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    chat.addToolResult(call.id, '12 °C and windy');
    const answer = await chat.send(undefined, { body: { tools: [] } });
    expect(getMessageText(answer!).length).toBeGreaterThan(0);
    expect(sent[1]!.body.input).toEqual([
      { type: 'function_call_output', call_id: call.id, output: '12 °C and windy' },
    ]);
  });

  it('stop() keeps the text received so far', async () => {
    const chat = session();
    const streaming = new Promise<void>((resolve) =>
      chat.subscribe(() => {
        const last = chat.getSnapshot().messages.at(-1);
        if (last?.role === 'assistant' && getMessageText(last) !== '') resolve();
      }),
    );
    const pending = chat.send('Please stop me early');
    await streaming;
    chat.stop();
    expect(await pending).toBeNull();
    const state = chat.getSnapshot();
    expect(state.finishReason).toBe('stopped');
    const kept = getMessageText(state.messages.at(-1)!);
    const expected = await reference('Please stop me early');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(expected.length);
    expect(expected.startsWith(kept)).toBe(true);
  });

  it('an upstream failure mid-answer (response.failed) is an UpstreamError, text kept', async () => {
    // gpt-4o-mini is served by the upstream's own /v1/responses (passed through natively).
    sim.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 8,
      count: 1,
      match: { path: '/openai/v1/responses' },
    });
    const chat = session();
    expect(await chat.send('Break please')).toBeNull();
    const { status, error, messages } = chat.getSnapshot();
    expect(status).toBe('error');
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error?.status).toBe(502);
    const kept = getMessageText(messages.at(-1)!);
    expect(messages.at(-1)?.role).toBe('assistant');
    expect((await reference('Break please')).startsWith(kept)).toBe(true);
  });
});

describe('ChatSession on /v1/responses, translated (a claude model)', () => {
  it('an upstream error mid-answer is the turn’s UpstreamError, the text kept', async () => {
    sim.faults.add({
      kind: 'stream-error',
      afterChunks: 4,
      count: 1,
      match: { path: '/anthropic/v1/messages' },
    });
    const chat = session({ model: 'claude-haiku-4-5' });
    expect(await chat.send('Break the translated one')).toBeNull();
    const { status, error, messages } = chat.getSnapshot();
    expect(status).toBe('error');
    expect(error).toBeInstanceOf(UpstreamError);
    expect(messages.at(-1)?.role).toBe('assistant');
    expect(getMessageText(messages.at(-1)!).length).toBeGreaterThan(0);
  });
});

describe('streamResponse', () => {
  it('yields numbered events and the final response', async () => {
    const stream = streamResponse(client, { model: 'gpt-4o-mini', input: 'Count to 3' });
    const numbers: number[] = [];
    for await (const event of stream) numbers.push(event.sequence_number);
    expect(numbers).toEqual(numbers.map((_, i) => i));
    const response = await stream.finalResponse();
    expect(response.status).toBe('completed');
    expect(await stream.text()).toBe(await reference('Count to 3'));
  });
});

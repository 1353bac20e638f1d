// ChatSession against a real gateway (demo mode, paced simulator): both text formats, stop,
// regenerate, tool calls, errors, usage and cost, and a pluggable store. No UI framework involved.
import { AuthenticationError, createClient, InsufficientQuotaError } from '@modelgate/core';
import { describe, expect, inject, it } from 'vitest';
import {
  ChatSession,
  type ChatSessionState,
  createWebStorageChatStore,
  getMessageText,
} from '../src/index.js';

const gateway = inject('gateway');
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });

/** The simulator answers a prompt deterministically: the non-streamed answer is the reference. */
async function chatReference(prompt: string, model = 'gpt-4o-mini'): Promise<string> {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]?.message.content ?? '';
}

/** Every state the session published, in order. */
function record(session: ChatSession): ChatSessionState[] {
  const states: ChatSessionState[] = [];
  session.subscribe(() => states.push(session.getSnapshot()));
  return states;
}

/** A Web Storage stand-in (the same two methods localStorage has). */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('ChatSession on /v1/chat/completions', () => {
  it('streams the answer into the last message, then reports usage and cost', async () => {
    const finished: string[] = [];
    const session = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      pricePerMillionTokens: { input: 0.15, output: 0.6 },
      onFinish: (message, details) =>
        finished.push(`${details.finishReason}:${details.model}:${message.id}`),
    });
    const states = record(session);
    const before = session.getSnapshot();
    expect(session.getSnapshot()).toBe(before); // stable until something changes

    const answer = await session.send('Tell me about kites');
    const expected = await chatReference('Tell me about kites');
    expect(getMessageText(answer!)).toBe(expected);

    const state = session.getSnapshot();
    expect(state.status).toBe('ready');
    expect(state.finishReason).toBe('stop');
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(state.messages[1]!.id).toBe(answer!.id);
    expect(state.usage?.completion_tokens).toBeGreaterThan(0);
    expect(state.usage).toMatchObject(state.totalUsage); // the usage chunk may carry details too
    const { prompt_tokens, completion_tokens } = state.usage!;
    expect(state.cost).toBeCloseTo((prompt_tokens * 0.15 + completion_tokens * 0.6) / 1e6, 12);
    expect(finished).toEqual([`stop:gpt-4o-mini:${answer!.id}`]);

    // submitted → streaming (the text grew through prefixes of the answer) → ready.
    const statuses = states.map((s) => s.status);
    expect(statuses[0]).toBe('submitted');
    expect(statuses.at(-1)).toBe('ready');
    const partials = states
      .filter((s) => s.status === 'streaming')
      .map((s) => getMessageText(s.messages.at(-1)!));
    expect(partials.length).toBeGreaterThan(1);
    for (const text of partials) expect(expected.startsWith(text)).toBe(true);
  });

  it('stop() keeps the text received so far and marks the turn stopped', async () => {
    const session = new ChatSession({ client, model: 'gpt-4o-mini' });
    const firstText = new Promise<string | undefined>((resolve) =>
      session.subscribe(() => {
        const { status, responseModel } = session.getSnapshot();
        if (status === 'streaming') resolve(responseModel);
      }),
    );
    const pending = session.send('Please stop me early');
    // The model the response names is known from the first text on, before the turn ends.
    expect(await firstText).toBe('gpt-4o-mini');
    session.stop();
    expect(await pending).toBeNull();
    const state = session.getSnapshot();
    expect(state.status).toBe('ready');
    expect(state.finishReason).toBe('stopped');
    expect(state.error).toBeUndefined();
    expect(state.usage).toBeUndefined(); // the server never sent it
    const kept = getMessageText(state.messages.at(-1)!);
    const expected = await chatReference('Please stop me early');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(expected.length);
    expect(expected.startsWith(kept)).toBe(true);
  });

  it('regenerate() replaces the answer after the last user message', async () => {
    const session = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      initialMessages: [
        { role: 'user', content: 'Reload me' },
        { role: 'assistant', content: 'a stale answer' },
      ],
    });
    const answer = await session.regenerate();
    const { messages } = session.getSnapshot();
    expect(messages).toHaveLength(2);
    expect(getMessageText(messages[1]!)).toBe(await chatReference('Reload me'));
    expect(messages[1]!.id).toBe(answer!.id);
  });

  it('sending again aborts the turn in flight; only the newer one lands', async () => {
    const session = new ChatSession({ client, model: 'gpt-4o-mini', body: { max_tokens: 4 } });
    const first = session.send('First');
    const second = session.send('Second');
    expect(await first).toBeNull();
    expect(getMessageText((await second)!)).toBe(
      (
        await client.chat.completions.create({
          model: 'gpt-4o-mini',
          max_tokens: 4,
          messages: [
            { role: 'user', content: 'First' },
            { role: 'user', content: 'Second' },
          ],
        })
      ).choices[0]?.message.content,
    );
    expect(session.getSnapshot().messages.map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
    ]);
  });

  it.each([
    { name: 'no credit', key: () => gateway.brokeKey, type: InsufficientQuotaError, status: 402 },
    {
      name: 'an unknown key',
      key: () => 'sk-not-a-real-key',
      type: AuthenticationError,
      status: 401,
    },
  ])(
    'a refused turn ($name) is an error state with status and code',
    async ({ key, type, status }) => {
      const errors: unknown[] = [];
      const session = new ChatSession({
        client: createClient({ baseUrl: gateway.url, apiKey: key(), maxRetries: 0 }),
        model: 'gpt-4o-mini',
        onError: (error) => errors.push(error),
      });
      expect(await session.send('Hello?')).toBeNull();
      const state = session.getSnapshot();
      expect(state.status).toBe('error');
      expect(state.error).toBeInstanceOf(type);
      expect(state.error?.status).toBe(status);
      expect(errors).toEqual([state.error]);
      expect(state.messages.map((m) => m.role)).toEqual(['user']);
    },
  );

  it('surfaces a tool call, takes its result and continues', async () => {
    const session = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      body: {
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string', enum: ['Oslo'] } },
                required: ['city'],
              },
            },
          },
        ],
      },
    });
    await session.send('What is the get_weather in Oslo?');
    const state = session.getSnapshot();
    expect(state.finishReason).toBe('tool_calls');
    expect(state.toolCalls).toHaveLength(1);
    const call = state.toolCalls[0]!;
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    const last = state.messages.at(-1);
    expect(last?.role === 'assistant' ? last.tool_calls?.[0]?.id : undefined).toBe(call.id);

    session.addToolResult(call.id, '12 °C and windy');
    expect(session.getSnapshot().toolCalls).toEqual([]);
    session.setFormat({ format: 'chat' }); // no tools offered: the model answers in text
    const answer = await session.send();
    expect(getMessageText(answer!).length).toBeGreaterThan(0);
    expect(session.getSnapshot().messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });
});

describe('ChatSession on /v1/messages', () => {
  async function messagesReference(model: string, prompt: string): Promise<string> {
    const message = await client.messages.create({
      model,
      max_tokens: 1024,
      messages: [{ role: 'user', content: prompt }],
    });
    return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }

  it.each(['claude-sonnet-4-5', 'gpt-4o-mini'])(
    'streams %s through the messages format, with usage in the chat shape',
    async (model) => {
      const session = new ChatSession({ client, model, format: 'messages' });
      const answer = await session.send('Tell me about kites');
      expect(getMessageText(answer!)).toBe(await messagesReference(model, 'Tell me about kites'));
      const state = session.getSnapshot();
      expect(state.finishReason).toBe('stop');
      expect(state.usage?.prompt_tokens).toBeGreaterThan(0);
      expect(state.usage?.total_tokens).toBe(
        state.usage!.prompt_tokens + state.usage!.completion_tokens,
      );
    },
  );

  it('sends a system message as `system` and tool results as tool_result blocks', async () => {
    const session = new ChatSession({
      client,
      model: 'claude-sonnet-4-5',
      format: 'messages',
      initialMessages: [{ role: 'system', content: 'Answer briefly.' }],
      body: {
        max_tokens: 64,
        tools: [
          {
            name: 'lookup',
            input_schema: {
              type: 'object',
              properties: { q: { type: 'integer', minimum: 3 } },
              required: ['q'],
            },
          },
        ],
      },
    });
    await session.send('Use lookup please');
    const call = session.getSnapshot().toolCalls[0]!;
    expect(call.function.name).toBe('lookup');
    expect(JSON.parse(call.function.arguments)).toEqual({ q: 3 });
    session.addToolResult(call.id, 'forty-two');
    // The gateway refuses a tool_result whose tool_use is missing: an answer proves the translation.
    const answer = await session.send();
    expect(answer).not.toBeNull();
    expect(session.getSnapshot().error).toBeUndefined();
  });
});

describe('ChatSession state storage', () => {
  it('a Web Storage store keeps the conversation for the next session', async () => {
    const storage = memoryStorage();
    const first = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      body: { max_tokens: 3 },
      store: createWebStorageChatStore(storage, 'chat'),
    });
    const answer = await first.send('Remember me');
    expect(storage.items.has('chat')).toBe(true);

    const second = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      store: createWebStorageChatStore(storage, 'chat'),
    });
    const state = second.getSnapshot();
    expect(state.status).toBe('ready');
    expect(state.messages.map((m) => m.id)).toEqual(first.getSnapshot().messages.map((m) => m.id));
    expect(getMessageText(state.messages[1]!)).toBe(getMessageText(answer!));
    expect(state.totalUsage).toEqual(first.getSnapshot().totalUsage);
  });

  it('a store that cannot be read starts empty', () => {
    const storage = memoryStorage();
    storage.setItem('chat', '{not json');
    const session = new ChatSession({
      client,
      model: 'gpt-4o-mini',
      store: createWebStorageChatStore(storage, 'chat'),
    });
    expect(session.getSnapshot().messages).toEqual([]);
  });
});

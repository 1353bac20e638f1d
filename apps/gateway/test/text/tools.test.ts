/**
 * Tool (function) calling through the gateway, in both API formats, streamed and not: same-format
 * pass-through, chat on an Anthropic-kind model and messages on an OpenAI-kind model (translated
 * both ways, parallel calls and the tool-result round trip included), validation, billing of tool
 * definitions, and the official `openai` and `@anthropic-ai/sdk` clients doing a round trip.
 * The simulator answers with deterministic calls and enforces the real APIs' call/result pairing,
 * so a translation that misplaces a result fails here. Every body and event is held to the spec.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  zChatCompletion,
  zChatCompletionChunk,
  zMessage,
  zMessageStreamEvent,
} from '@modelgate/core/zod';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateInputTokens } from '../../src/text/tokens.js';
import { OpenAiToAnthropicStream } from '../../src/translate/openai-to-anthropic-stream.js';
import type { ChatTool, OpenAiChatChunk } from '../../src/translate/wire.js';
import { expectError, expectOk, expectStream, type Json } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-haiku-4-5';
const CHAT = 'POST /v1/chat/completions';
const MESSAGES = 'POST /v1/messages';

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city', 'unit'],
};
const clock = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] };

const chatTools: ChatTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Weather in a city.', parameters: weather },
  },
  { type: 'function', function: { name: 'get_time', parameters: clock } },
];
const messagesTools = [
  { name: 'get_weather', description: 'Weather in a city.', input_schema: weather },
  { name: 'get_time', input_schema: clock },
];

/** The tool calls of a streamed chat answer, reassembled from their pieces by `index`. */
function assembleCalls(chunks: Json[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const chunk of chunks) {
    for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) {
      calls[piece.index] ??= { id: '', name: '', arguments: '' };
      const call = calls[piece.index]!;
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name = piece.function.name;
      call.arguments += piece.function?.arguments ?? '';
    }
  }
  return calls;
}

/** The tool_use blocks of a streamed message, with their input parsed from the JSON pieces. */
function assembleToolUses(events: Json[]): { id: string; name: string; input: unknown }[] {
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  for (const event of events) {
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
      expect(event.content_block.input).toEqual({});
      blocks.set(event.index, {
        id: event.content_block.id,
        name: event.content_block.name,
        json: '',
      });
    }
    if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
      blocks.get(event.index)!.json += event.delta.partial_json;
    }
  }
  return [...blocks.values()].map((b) => ({ id: b.id, name: b.name, input: JSON.parse(b.json) }));
}

describe('tool calling through the gateway', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  const chat = (body: Json) =>
    gw.fetch('/v1/chat/completions', { method: 'POST', key, json: body });
  const messages = (body: Json) => gw.fetch('/v1/messages', { method: 'POST', key, json: body });

  describe.each([
    [GPT, 'pass-through'],
    [CLAUDE, 'translated to Anthropic'],
  ])('chat completions on %s (%s)', (model) => {
    const ask = (content: string, extra: Json = {}) => ({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content }],
      tools: chatTools,
      ...extra,
    });

    it('answers with a tool call, then with text once given the result', async () => {
      const first = await expectOk(await chat(ask('What is the weather?')), CHAT, zChatCompletion);
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toHaveLength(1);
      const call = choice.message.tool_calls![0]!;
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toMatchObject({ unit: 'celsius' });
      expect(call.id.length).toBeGreaterThan(0);

      const second = await expectOk(
        await chat({
          ...ask('What is the weather?'),
          messages: [
            { role: 'user', content: 'What is the weather?' },
            choice.message,
            { role: 'tool', tool_call_id: call.id, content: '{"temperature":18}' },
          ],
        }),
        CHAT,
        zChatCompletion,
      );
      expect(second.choices[0]!.finish_reason).toBe('stop');
      expect(second.choices[0]!.message.content!.length).toBeGreaterThan(0);
      expect(second.choices[0]!.message.tool_calls).toBeUndefined();
    });

    it('parallel calls and their results in one round trip; parallel_tool_calls: false → one', async () => {
      const prompt = 'Use get_weather and get_time';
      const first = await expectOk(await chat(ask(prompt)), CHAT, zChatCompletion);
      const reply = first.choices[0]!.message;
      expect(reply.tool_calls!.map((c) => c.function.name)).toEqual(['get_weather', 'get_time']);
      expect(new Set(reply.tool_calls!.map((c) => c.id)).size).toBe(2);

      const results = reply.tool_calls!.map((c) => ({
        role: 'tool',
        tool_call_id: c.id,
        content: `result of ${c.function.name}`,
      }));
      const second = await expectOk(
        await chat({
          ...ask(prompt),
          messages: [{ role: 'user', content: prompt }, reply, ...results],
        }),
        CHAT,
        zChatCompletion,
      );
      expect(second.choices[0]!.finish_reason).toBe('stop');

      const single = await expectOk(
        await chat(ask(prompt, { parallel_tool_calls: false })),
        CHAT,
        zChatCompletion,
      );
      expect(single.choices[0]!.message.tool_calls).toHaveLength(1);
    });

    it('tool_choice: a named function, required, none', async () => {
      const named = await expectOk(
        await chat(
          ask('Hello', { tool_choice: { type: 'function', function: { name: 'get_time' } } }),
        ),
        CHAT,
        zChatCompletion,
      );
      expect(named.choices[0]!.message.tool_calls![0]!.function.name).toBe('get_time');
      const required = await expectOk(
        await chat(ask('Hello', { tool_choice: 'required' })),
        CHAT,
        zChatCompletion,
      );
      expect(required.choices[0]!.finish_reason).toBe('tool_calls');
      const none = await expectOk(
        await chat(ask('Hello', { tool_choice: 'none' })),
        CHAT,
        zChatCompletion,
      );
      expect(none.choices[0]!.finish_reason).toBe('stop');
      expect(none.choices[0]!.message.tool_calls).toBeUndefined();
    });

    it('streams parallel calls as tool_calls deltas (id and name first, arguments in pieces)', async () => {
      const chunks = await expectStream(
        await chat(
          ask('get_weather and get_time', {
            stream: true,
            stream_options: { include_usage: true },
          }),
        ),
        CHAT,
        zChatCompletionChunk,
        { done: true },
      );
      const calls = assembleCalls(chunks);
      expect(calls.map((c) => c.name)).toEqual(['get_weather', 'get_time']);
      for (const call of calls) expect(call.id.length).toBeGreaterThan(0);
      expect(JSON.parse(calls[0]!.arguments)).toMatchObject({ unit: 'celsius' });
      expect(JSON.parse(calls[1]!.arguments)).toHaveProperty('zone');
      const pieces = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
      expect(pieces.length).toBeGreaterThan(4);
      const finishes = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
      expect(finishes).toEqual(['tool_calls']);
      expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
    });

    it('streams the text answer after a tool result', async () => {
      const first = await expectOk(await chat(ask('What is the weather?')), CHAT, zChatCompletion);
      const reply = first.choices[0]!.message;
      const chunks = await expectStream(
        await chat({
          ...ask('What is the weather?'),
          stream: true,
          messages: [
            { role: 'user', content: 'What is the weather?' },
            reply,
            { role: 'tool', tool_call_id: reply.tool_calls![0]!.id, content: 'sunny' },
          ],
        }),
        CHAT,
        zChatCompletionChunk,
        { done: true },
      );
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      expect(text.length).toBeGreaterThan(0);
      expect(assembleCalls(chunks)).toEqual([]);
    });
  });

  describe.each([
    [CLAUDE, 'pass-through'],
    [GPT, 'translated to chat'],
  ])('messages on %s (%s)', (model) => {
    const ask = (content: string, extra: Json = {}) => ({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content }],
      tools: messagesTools,
      ...extra,
    });

    it('answers with tool_use blocks, then text once given tool_result blocks', async () => {
      const prompt = 'Use get_weather and get_time';
      const first = await expectOk(await messages(ask(prompt)), MESSAGES, zMessage);
      expect(first.stop_reason).toBe('tool_use');
      const uses = first.content.filter((b) => b.type === 'tool_use');
      expect(uses.map((b) => (b.type === 'tool_use' ? b.name : ''))).toEqual([
        'get_weather',
        'get_time',
      ]);
      const weatherUse = uses[0] as { id: string; input: Json };
      expect(weatherUse.input).toMatchObject({ unit: 'celsius' });

      const second = await expectOk(
        await messages({
          ...ask(prompt),
          messages: [
            { role: 'user', content: prompt },
            { role: 'assistant', content: first.content },
            {
              role: 'user',
              content: [
                ...uses.map((b) => ({
                  type: 'tool_result',
                  tool_use_id: (b as { id: string }).id,
                  content: [{ type: 'text', text: '42' }],
                })),
                { type: 'text', text: 'Summarise, please.' },
              ],
            },
          ],
        }),
        MESSAGES,
        zMessage,
      );
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content[0]!.type).toBe('text');
    });

    it('tool_choice: tool, any, none; disable_parallel_tool_use → one call', async () => {
      const named = await expectOk(
        await messages(ask('Hello', { tool_choice: { type: 'tool', name: 'get_time' } })),
        MESSAGES,
        zMessage,
      );
      expect(named.content).toMatchObject([{ type: 'tool_use', name: 'get_time' }]);
      const any = await expectOk(
        await messages(ask('Hello', { tool_choice: { type: 'any' } })),
        MESSAGES,
        zMessage,
      );
      expect(any.stop_reason).toBe('tool_use');
      const none = await expectOk(
        await messages(ask('Hello', { tool_choice: { type: 'none' } })),
        MESSAGES,
        zMessage,
      );
      expect(none.stop_reason).toBe('end_turn');
      const single = await expectOk(
        await messages(
          ask('get_weather and get_time', {
            tool_choice: { type: 'auto', disable_parallel_tool_use: true },
          }),
        ),
        MESSAGES,
        zMessage,
      );
      expect(single.content.filter((b) => b.type === 'tool_use')).toHaveLength(1);
    });

    it('streams tool_use blocks: content_block_start, input_json_delta pieces, stop_reason tool_use', async () => {
      const events = await expectStream(
        await messages(ask('get_weather and get_time', { stream: true })),
        MESSAGES,
        zMessageStreamEvent,
        { done: false },
      );
      expect(events[0]!.type).toBe('message_start');
      expect(events.at(-1)!.type).toBe('message_stop');
      const uses = assembleToolUses(events);
      expect(uses.map((u) => u.name)).toEqual(['get_weather', 'get_time']);
      expect(uses[0]!.input).toMatchObject({ unit: 'celsius' });
      for (const use of uses) expect(use.id.length).toBeGreaterThan(0);
      // Blocks open and close in order: each start's index is one past the previous stop's.
      const order = events
        .filter((e) => e.type === 'content_block_start' || e.type === 'content_block_stop')
        .map((e) => `${e.type === 'content_block_start' ? 'start' : 'stop'}:${(e as Json).index}`);
      expect(order).toEqual(['start:0', 'stop:0', 'start:1', 'stop:1']);
      const delta = events.find((e) => e.type === 'message_delta') as Json;
      expect(delta.delta.stop_reason).toBe('tool_use');
      expect(delta.usage.output_tokens).toBeGreaterThan(0);
    });
  });

  describe('validation', () => {
    it.each([
      [
        'a tool without name',
        { tools: [{ type: 'function', function: { parameters: weather } }] },
        'tools.0.function.name',
        'missing_field',
      ],
      [
        'a tool name with spaces',
        { tools: [{ type: 'function', function: { name: 'get weather' } }] },
        'tools.0.function.name',
        undefined,
      ],
      [
        'a tool description that is not a string',
        { tools: [{ type: 'function', function: { name: 'f', description: 1 } }] },
        'tools.0.function.description',
        'invalid_type',
      ],
      ['an empty tools list', { tools: [] }, 'tools', 'out_of_range'],
      [
        'a tool message without tool_call_id',
        {
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'tool', content: '18' },
          ],
        },
        'messages.1.tool_call_id',
        'missing_field',
      ],
      [
        'a user message without content',
        { messages: [{ role: 'user', content: null }] },
        'messages.0.content',
        'missing_field',
      ],
    ])('chat: %s → 400 naming the field', async (_what, patch, param, code) => {
      for (const model of [GPT, CLAUDE]) {
        const res = await chat({
          model,
          messages: [{ role: 'user', content: 'Hi' }],
          ...patch,
        });
        await expectError(res, CHAT, { status: 400, param, ...(code ? { code } : {}) });
      }
    });

    it('messages: a tool without name or input_schema, a bad tool_choice → 400 naming it', async () => {
      const base = { model: CLAUDE, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] };
      await expectError(await messages({ ...base, tools: [{ input_schema: weather }] }), MESSAGES, {
        status: 400,
        param: 'tools.0.name',
      });
      await expectError(await messages({ ...base, tools: [{ name: 'f' }] }), MESSAGES, {
        status: 400,
        param: 'tools.0.input_schema',
      });
      await expectError(
        await messages({ ...base, tools: messagesTools, tool_choice: { type: 'sometimes' } }),
        MESSAGES,
        { status: 400, param: 'tool_choice' },
      );
    });
  });

  it('the input estimate counts tool definitions, tool calls and tool results', () => {
    const plain = estimateInputTokens({
      format: 'chat',
      body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }] },
    });
    const withTools = estimateInputTokens({
      format: 'chat',
      body: { model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools: chatTools },
    });
    expect(withTools).toBeGreaterThan(plain + 20);
    const result = 'x'.repeat(400);
    const blocks = estimateInputTokens({
      format: 'messages',
      body: {
        model: 'm',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't', name: 'f', input: { a: 1 } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: result }] },
        ],
      },
    });
    expect(blocks).toBeGreaterThan(100);
  });

  it('chat chunks → messages events: text, then a tool call, each in its own block', () => {
    const t = new OpenAiToAnthropicStream({ estimatedInputTokens: 5 });
    const chunk = (delta: Json, finish: string | null = null): OpenAiChatChunk => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const out = [
      ...t.push(chunk({ role: 'assistant', content: 'Let me check.' })),
      ...t.push(
        chunk({
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } },
          ],
        }),
      ),
      ...t.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })),
      ...t.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] })),
      ...t.push(chunk({}, 'tool_calls')),
      ...t.push('done'),
    ];
    const events = out.map((sse) => JSON.parse(sse.split('data: ')[1]!) as Json);
    for (const event of events) expect(zMessageStreamEvent.safeParse(event).success).toBe(true);
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[5]!.content_block).toEqual({
      type: 'tool_use',
      id: 'call_1',
      name: 'f',
      input: {},
    });
    expect(events[9]!.delta.stop_reason).toBe('tool_use');
    expect(t.producedText).toContain('{"a":1}');
  });

  describe.each([GPT, CLAUDE])('official SDKs on %s', (model) => {
    let openai: OpenAI;
    let anthropic: Anthropic;
    beforeAll(() => {
      openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
      anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
    });

    const openaiTools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'get_weather', description: 'Weather in a city.', parameters: weather },
      },
    ];

    it('openai: create → run the tool → create with the result', async () => {
      const history: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'What is the weather?' },
      ];
      const first = await openai.chat.completions.create({
        model,
        messages: history,
        tools: openaiTools,
        max_tokens: 64,
      });
      const message = first.choices[0]!.message;
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const call = message.tool_calls![0]!;
      expect(call.type).toBe('function');
      const args = JSON.parse(call.type === 'function' ? call.function.arguments : '{}');
      history.push(message, {
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify({ city: args.city, temperature: 18 }),
      });
      const second = await openai.chat.completions.create({
        model,
        messages: history,
        tools: openaiTools,
        max_tokens: 64,
      });
      expect(second.choices[0]!.finish_reason).toBe('stop');
      expect(second.choices[0]!.message.content!.length).toBeGreaterThan(0);
    });

    it('openai: the stream helper accumulates the tool call', async () => {
      const runner = openai.chat.completions.stream({
        model,
        messages: [{ role: 'user', content: 'What is the weather?' }],
        tools: openaiTools,
        max_tokens: 64,
      });
      const final = await runner.finalChatCompletion();
      const call = final.choices[0]!.message.tool_calls![0]!;
      expect(call.type === 'function' && call.function.name).toBe('get_weather');
      expect(JSON.parse(call.type === 'function' ? call.function.arguments : '')).toMatchObject({
        unit: 'celsius',
      });
      expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    });

    const anthropicTools: Anthropic.Tool[] = [
      {
        name: 'get_weather',
        description: 'Weather in a city.',
        input_schema: weather as Anthropic.Tool.InputSchema,
      },
    ];

    it('anthropic: stream → run the tool → create with the result', async () => {
      const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather?' }];
      const stream = anthropic.messages.stream({
        model,
        max_tokens: 64,
        messages: history,
        tools: anthropicTools,
      });
      const first = await stream.finalMessage();
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((b) => b.type === 'tool_use');
      expect(use).toBeDefined();
      if (use?.type !== 'tool_use') throw new Error('no tool_use block');
      expect(use.input).toMatchObject({ unit: 'celsius' });
      history.push(
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: use.id, content: '18 degrees' }],
        },
      );
      const second = await anthropic.messages.create({
        model,
        max_tokens: 64,
        messages: history,
        tools: anthropicTools,
      });
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content[0]!.type).toBe('text');
    });
  });
});

// Tool calling in both wire protocols: deterministic calls built from the tools' schemas, streamed
// the way the real APIs stream them, a text answer once the conversation ends with tool results,
// and the real APIs' pairing rules between calls and results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { argumentsFor, planToolCalls } from '../src/text/tools.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 2 },
    detailed: { type: 'boolean' },
  },
  required: ['city', 'unit', 'days'],
};
const timeSchema = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] };

describe('argumentsFor', () => {
  it('fills every required property by its type, enum and minimum first', () => {
    const args = argumentsFor(weatherSchema, 42);
    expect(Object.keys(args).sort()).toEqual(['city', 'days', 'unit']);
    expect(typeof args.city).toBe('string');
    expect((args.city as string).length).toBeGreaterThan(0);
    expect(args.unit).toBe('celsius');
    expect(args.days).toBe(2);
    expect(argumentsFor(weatherSchema, 42)).toEqual(args);
  });
});

describe('planToolCalls', () => {
  const tools = ['Agent', 'Read', 'Bash'].map((name) => ({ name, schema: { type: 'object' } }));
  const auto = { mode: 'auto', parallel: true } as const;

  it('calls the tools the user names, not those an agent CLI lists in a system reminder', () => {
    const text =
      'Use the Read tool on notes.txt.<system-reminder>Tools: Agent, Bash, Read</system-reminder>';
    expect(planToolCalls(tools, auto, text, false)?.map((c) => c.name)).toEqual(['Read']);
    expect(planToolCalls(tools, auto, 'Agent and Bash, please', false)?.map((c) => c.name)).toEqual(
      ['Agent', 'Bash'],
    );
  });
});

describe('OpenAI chat tools (§1)', () => {
  const headers = { authorization: 'Bearer sk-test' };
  const tools = [
    { type: 'function', function: { name: 'get_weather', parameters: weatherSchema } },
    { type: 'function', function: { name: 'get_time', parameters: timeSchema } },
  ];
  const chat = (body: Record<string, unknown>) =>
    postJson(
      `${sim.url}/openai/v1/chat/completions`,
      {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'What is the weather?' }],
        tools,
        ...body,
      },
      headers,
    );

  it('answers with a call of the first tool, arguments from its schema', async () => {
    const res = await chat({});
    expect(res.status).toBe(200);
    const body = await res.json();
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(call.id).toMatch(/^call_/);
    expect(JSON.parse(call.function.arguments)).toMatchObject({ unit: 'celsius', days: 2 });
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('calls every tool the user names, unless parallel calls are off', async () => {
    const messages = [{ role: 'user', content: 'Use get_time and get_weather' }];
    const both = await (await chat({ messages })).json();
    expect(
      both.choices[0].message.tool_calls.map(
        (c: { function: { name: string } }) => c.function.name,
      ),
    ).toEqual(['get_weather', 'get_time']);
    const one = await (await chat({ messages, parallel_tool_calls: false })).json();
    expect(one.choices[0].message.tool_calls).toHaveLength(1);
  });

  it('follows tool_choice: a named function, or none for text', async () => {
    const named = await (
      await chat({ tool_choice: { type: 'function', function: { name: 'get_time' } } })
    ).json();
    expect(named.choices[0].message.tool_calls[0].function.name).toBe('get_time');
    const none = await (await chat({ tool_choice: 'none' })).json();
    expect(none.choices[0].finish_reason).toBe('stop');
    expect(typeof none.choices[0].message.content).toBe('string');
  });

  it('streams a call: id and name first, then the arguments in pieces', async () => {
    const res = await chat({ stream: true, stream_options: { include_usage: true } });
    const events = parseSse(await res.text());
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    const pieces = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(pieces[0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(pieces[0].id).toMatch(/^call_/);
    expect(pieces.length).toBeGreaterThan(2);
    const args = pieces.map((p: { function: { arguments: string } }) => p.function.arguments);
    expect(JSON.parse(args.join(''))).toMatchObject({ unit: 'celsius', days: 2 });
    const finishes = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
    expect(finishes).toEqual(['tool_calls']);
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  it('answers with text once the last message is a tool result', async () => {
    const first = await (await chat({})).json();
    const call = first.choices[0].message.tool_calls[0];
    const messages = [
      { role: 'user', content: 'What is the weather?' },
      first.choices[0].message,
      { role: 'tool', tool_call_id: call.id, content: '{"temperature":18}' },
    ];
    const res = await chat({ messages });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.content.length).toBeGreaterThan(0);
    expect(body.choices[0].message.tool_calls).toBeUndefined();
    // Results followed by more user text still count: the model answers them with text.
    const followed = await chat({ messages: [...messages, { role: 'user', content: 'Thanks' }] });
    expect((await followed.json()).choices[0].finish_reason).toBe('stop');
  });

  it('enforces the pairing of calls and tool messages, and tool names', async () => {
    const orphan = await chat({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'tool', tool_call_id: 'call_x', content: '1' },
      ],
    });
    expect(orphan.status).toBe(400);
    const unanswered = await chat({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'user', content: 'And?' },
      ],
    });
    expect(unanswered.status).toBe(400);
    expect((await unanswered.json()).error.message).toContain('call_a');
    const nameless = await chat({ tools: [{ type: 'function', function: {} }] });
    expect(nameless.status).toBe(400);
    expect((await nameless.json()).error.param).toBe('tools[0].function.name');
  });

  it('keeps the plain text answer without tools', async () => {
    const body = await (await chat({ tools: undefined })).json();
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.choices[0].message.tool_calls).toBeUndefined();
  });
});

describe('Anthropic tools (§2)', () => {
  const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
  const tools = [
    { name: 'get_weather', input_schema: weatherSchema },
    { name: 'get_time', input_schema: timeSchema },
  ];
  const message = (body: Record<string, unknown>) =>
    postJson(
      `${sim.url}/anthropic/v1/messages`,
      {
        model: 'claude-haiku-4-5',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'What is the weather?' }],
        tools,
        ...body,
      },
      headers,
    );

  it('answers with a tool_use block and stop_reason tool_use', async () => {
    const res = await message({});
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toHaveLength(1);
    expect(body.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { unit: 'celsius', days: 2 },
    });
    expect(body.content[0].id).toMatch(/^toolu_/);
  });

  it('parallel calls, disable_parallel_tool_use, a named tool and none', async () => {
    const messages = [{ role: 'user', content: 'Use get_weather and get_time' }];
    const both = await (await message({ messages })).json();
    expect(both.content.map((b: { name: string }) => b.name)).toEqual(['get_weather', 'get_time']);
    const one = await (
      await message({ messages, tool_choice: { type: 'auto', disable_parallel_tool_use: true } })
    ).json();
    expect(one.content).toHaveLength(1);
    const named = await (await message({ tool_choice: { type: 'tool', name: 'get_time' } })).json();
    expect(named.content[0].name).toBe('get_time');
    const none = await (await message({ tool_choice: { type: 'none' } })).json();
    expect(none.stop_reason).toBe('end_turn');
    expect(none.content[0].type).toBe('text');
  });

  it('streams tool_use blocks with input_json_delta pieces', async () => {
    const res = await message({
      stream: true,
      messages: [{ role: 'user', content: 'get_weather and get_time please' }],
    });
    const events = parseSse(await res.text()).map((e) => ({
      event: e.event,
      data: JSON.parse(e.data),
    }));
    for (const e of events) expect(e.event).toBe(e.data.type);
    const starts = events.filter((e) => e.event === 'content_block_start');
    expect(starts.map((e) => e.data.content_block)).toMatchObject([
      { type: 'tool_use', name: 'get_weather', input: {} },
      { type: 'tool_use', name: 'get_time', input: {} },
    ]);
    const json = (index: number) =>
      events
        .filter((e) => e.event === 'content_block_delta' && e.data.index === index)
        .map((e) => {
          expect(e.data.delta.type).toBe('input_json_delta');
          return e.data.delta.partial_json as string;
        });
    expect(json(0).length).toBeGreaterThan(2);
    expect(JSON.parse(json(0).join(''))).toMatchObject({ unit: 'celsius', days: 2 });
    expect(JSON.parse(json(1).join(''))).toHaveProperty('zone');
    const delta = events.find((e) => e.event === 'message_delta')!;
    expect(delta.data.delta.stop_reason).toBe('tool_use');
    expect(events.at(-1)!.event).toBe('message_stop');
  });

  it('answers with text after tool results; enforces the pairing', async () => {
    const first = await (await message({})).json();
    const use = first.content[0];
    const answered = await message({
      messages: [
        { role: 'user', content: 'What is the weather?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: use.id, content: '18 degrees' }],
        },
      ],
    });
    expect(answered.status).toBe(200);
    const body = await answered.json();
    expect(body.stop_reason).toBe('end_turn');
    expect(body.content[0].type).toBe('text');

    const unanswered = await message({
      messages: [
        { role: 'user', content: 'What is the weather?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'Never mind' },
      ],
    });
    expect(unanswered.status).toBe(400);
    expect((await unanswered.json()).error.message).toContain(use.id);

    const late = await message({
      messages: [
        { role: 'user', content: 'What is the weather?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here:' },
            { type: 'tool_result', tool_use_id: use.id, content: '18' },
          ],
        },
      ],
    });
    expect(late.status).toBe(400);
  });

  it('refuses a tool without input_schema', async () => {
    const res = await message({ tools: [{ name: 'x' }] });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('input_schema');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
let base: string;
const auth = { authorization: 'Bearer sk-test' };

beforeAll(async () => {
  sim = await startSimulator();
  base = `${sim.url}/openai/v1`;
});
afterAll(() => sim.close());

const create = (body: Record<string, unknown>) =>
  postJson(`${base}/responses`, { model: 'gpt-4o-mini', input: 'Hi there', ...body }, auth);

const weather = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OpenAI Responses API (§1)', () => {
  it('answers a message with usage details, ignoring the fields Codex adds', async () => {
    const res = await create({
      client_metadata: { x: '1' },
      prompt_cache_key: 'k',
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.object).toBe('response');
    expect(body.status).toBe('completed');
    expect(body.output[0].type).toBe('message');
    expect(body.output[0].content[0].type).toBe('output_text');
    expect(body.output[0].content[0].text.length).toBeGreaterThan(0);
    expect(body.usage.input_tokens_details.cached_tokens).toBe(0);
    expect(body.usage.output_tokens_details.reasoning_tokens).toBe(0);
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + body.usage.output_tokens);
  });

  it('calls a function tool, then answers with text once given its output', async () => {
    const first = await (await create({ tools: [weather] })).json();
    const call = first.output.find((i: { type: string }) => i.type === 'function_call');
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toHaveProperty('city');
    const input = [
      { role: 'user', content: 'Hi there' },
      call,
      { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
    ];
    const second = await (await create({ tools: [weather], input })).json();
    expect(second.output.map((i: { type: string }) => i.type)).toEqual(['message']);
  });

  it('reports reasoning as an item and as reasoning tokens', async () => {
    const body = await (await create({ reasoning: { effort: 'low', summary: 'auto' } })).json();
    expect(body.output[0].type).toBe('reasoning');
    expect(body.output[0].summary[0].type).toBe('summary_text');
    expect(body.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('streams the full numbered event sequence', async () => {
    const res = await create({ stream: true, tools: [weather], input: 'Say hi' });
    const events = parseSse(await res.text()).map((e) => JSON.parse(e.data));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
    ]);
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(types.at(-1)).toBe('response.completed');
    const text = parseSse(await (await create({ stream: true })).text()).map((e) => e.event);
    expect(text).toEqual(
      expect.arrayContaining([
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
      ]),
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { postJson } from './helpers.js';

let sim: Simulator;
const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const count = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
  postJson(`${sim.url}/anthropic/v1/messages/count_tokens`, body, h);

describe('Anthropic count_tokens', () => {
  const request = {
    model: 'claude-sonnet-4-5',
    system: 'You are a terse assistant.',
    messages: [{ role: 'user', content: 'How many tokens is this sentence, roughly?' }],
  };

  it('counts what a create with the same input reports as input_tokens', async () => {
    const res = await count(request);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['input_tokens']);
    const created = await postJson(
      `${sim.url}/anthropic/v1/messages`,
      { ...request, max_tokens: 8 },
      headers,
    );
    expect(body.input_tokens).toBe((await created.json()).usage.input_tokens);
    expect(body.input_tokens).toBeGreaterThan(10);
  });

  it('counts the text of documents and search results, as create reports it', async () => {
    const plain = (await (await count(request)).json()).input_tokens as number;
    const words = 'The quarterly report says revenue grew by forty-two percent. '.repeat(20);
    const withSources = {
      ...request,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: words } },
            {
              type: 'search_result',
              source: 'https://example.com',
              title: 'Result',
              content: [{ type: 'text', text: words }],
            },
            { type: 'text', text: 'How many tokens is this sentence, roughly?' },
          ],
        },
      ],
    };
    const counted = (await (await count(withSources)).json()).input_tokens as number;
    // Each source holds the same ≈ 220 tokens of text.
    expect(counted - plain).toBeGreaterThan(400);
    const created = await postJson(
      `${sim.url}/anthropic/v1/messages`,
      { ...withSources, max_tokens: 8 },
      headers,
    );
    expect(created.status).toBe(200);
    expect((await created.json()).usage.input_tokens).toBe(counted);
  });

  it('counts tools and takes thinking and output_config, as the real endpoint', async () => {
    const plain = await (await count(request)).json();
    const tools = [
      { name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } },
    ];
    const res = await count({
      ...request,
      tools,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).input_tokens).toBeGreaterThan(plain.input_tokens);
  });

  it('refuses max_tokens and stream (extra inputs), a missing version and an unknown model', async () => {
    for (const extra of [{ max_tokens: 5 }, { stream: true }]) {
      const res = await count({ ...request, ...extra });
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toContain('Extra inputs are not permitted');
    }
    const noVersion = await count(request, { 'x-api-key': 'sk-ant-test' });
    expect(noVersion.status).toBe(400);
    const unknown = await count({ ...request, model: 'unknown-model' });
    expect(unknown.status).toBe(404);
  });
});

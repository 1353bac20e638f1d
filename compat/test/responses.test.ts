/**
 * The clients that speak the Responses API by default, unchanged, against a gateway started as
 * `pnpm start` starts it, on a GPT-style and a Claude-style model (the second translated to the
 * Anthropic protocol and back): the `openai` client's `responses.*`, the AI SDK's `openai(id)`
 * and the OpenAI Agents SDK. Every request they send must be answered 2xx (the access log says).
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  Agent,
  tool as agentTool,
  run,
  setDefaultOpenAIClient,
  setTracingDisabled,
} from '@openai/agents';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

/** The access-log lines of the gateway's output for `/v1/responses…` paths. */
function responsesLog(gw: StartedGateway): { path: string; status: number }[] {
  return gw.output
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { path?: string; status?: number };
        return entry.path?.startsWith('/v1/responses') && typeof entry.status === 'number'
          ? [{ path: entry.path, status: entry.status }]
          : [];
      } catch {
        return [];
      }
    });
}

describe('Responses API clients', () => {
  let gw: StartedGateway;
  let key: string;
  let client: OpenAI;
  beforeAll(async () => {
    gw = await startGateway({ LOG_LEVEL: 'info' });
    key = (await gw.createKey()).key;
    client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    const log = responsesLog(gw);
    await gw?.close();
    // Every request the clients sent was answered 2xx.
    expect(log.length).toBeGreaterThan(10);
    expect(log.filter((l) => l.status >= 300)).toEqual([]);
  });

  it.each(MODELS)(
    'openai responses.create, stream, tools, previous_response_id on %s',
    async (model) => {
      const plain = await client.responses.create({
        model,
        input: 'Hello',
        instructions: 'Be brief.',
      });
      expect(plain.output_text.length).toBeGreaterThan(0);

      const stream = await client.responses.create({ model, input: 'Hello', stream: true });
      let text = '';
      let completed: OpenAI.Responses.Response | null = null;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(text.length).toBeGreaterThan(0);
      expect(completed?.output_text).toBe(text);

      const tools: OpenAI.Responses.Tool[] = [
        {
          type: 'function',
          name: 'get_weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
          strict: false,
        },
      ];
      const first = await client.responses.create({ model, input: 'Weather in Oslo?', tools });
      const call = first.output.find((i) => i.type === 'function_call');
      if (call?.type !== 'function_call') throw new Error('no function call');
      const second = await client.responses.create({
        model,
        tools,
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Snow' }],
      });
      expect(second.output_text.length).toBeGreaterThan(0);
      expect((await client.responses.retrieve(second.id)).id).toBe(second.id);
      // The SDK types delete as void; the body is OpenAI's `{ id, object, deleted }`.
      const deleted: unknown = await client.responses.delete(second.id);
      expect(deleted).toMatchObject({ id: second.id, deleted: true });
    },
  );

  it.each(MODELS)(
    'AI SDK openai(id) generateText and streamText with a tool on %s',
    async (model) => {
      const provider = createOpenAI({ apiKey: key, baseURL: `${gw.url}/v1` });
      const calls: string[] = [];
      const weather = tool({
        description: 'The weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          calls.push(city);
          return `Sunny in ${city}`;
        },
      });
      const generated = await generateText({
        model: provider(model),
        prompt: 'What is the weather in Rome?',
        tools: { weather },
        stopWhen: stepCountIs(3),
      });
      expect(calls.length).toBe(1);
      expect(generated.text.length).toBeGreaterThan(0);

      const streamed = streamText({
        model: provider(model),
        prompt: 'What is the weather in Lima?',
        tools: { weather },
        stopWhen: stepCountIs(3),
      });
      let text = '';
      for await (const piece of streamed.textStream) text += piece;
      expect(calls.length).toBe(2);
      expect(text.length).toBeGreaterThan(0);
    },
  );

  it.each(MODELS)(
    'the OpenAI Agents SDK runs an agent with a function tool on %s',
    async (model) => {
      setTracingDisabled(true);
      setDefaultOpenAIClient(new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 }));
      const seen: string[] = [];
      const lookup = agentTool({
        name: 'lookup_capital',
        description: 'The capital of a country',
        parameters: z.object({ country: z.string() }),
        execute: async ({ country }) => {
          seen.push(country);
          return `The capital of ${country} is its largest city.`;
        },
      });
      const agent = new Agent({
        name: 'Geographer',
        instructions: 'Use the tool.',
        model,
        tools: [lookup],
      });
      const result = await run(agent, 'What is the capital of Peru? Use lookup_capital.');
      expect(seen.length).toBe(1);
      expect(String(result.finalOutput).length).toBeGreaterThan(0);
    },
  );
});

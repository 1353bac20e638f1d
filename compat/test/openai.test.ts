/**
 * The `openai` client's newest major (7.x, which needs Node ≥ 22), unchanged, against a gateway
 * started as `pnpm start` starts it, on a GPT-style and a Claude-style model (the second is
 * translated to the Anthropic protocol and back).
 */
import OpenAI from 'openai';
import { VERSION } from 'openai/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

describe(`openai ${VERSION} on Node ${process.versions.node}`, () => {
  let gw: StartedGateway;
  let client: OpenAI;
  beforeAll(async () => {
    gw = await startGateway();
    const { key } = await gw.createKey();
    client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it('runs on the Node the client asks for', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(VERSION.split('.')[0]).toBe('7');
  });

  it.each(MODELS)('chat.completions.create on %s', async (model) => {
    const completion = await client.chat.completions.create({
      model,
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_completion_tokens: 16,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('a streamed chat with usage on %s', async (model) => {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hello' }],
      max_completion_tokens: 16,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('models.list names the text models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(MODELS));
  });

  it('an unknown model is a typed 404 the client can branch on', async () => {
    const err = await client.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).status).toBe(404);
  });
});

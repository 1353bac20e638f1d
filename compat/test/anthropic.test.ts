/**
 * `@anthropic-ai/sdk`'s newest release, unchanged, against a gateway started as `pnpm start` starts
 * it: `messages.countTokens` on a Claude model (the Anthropic upstream's own count: what the
 * simulator reports as a create's input tokens) and on a GPT model (the gateway's estimate), the
 * beta client's `?beta=true` path with `anthropic-beta`, and a message with thinking.
 */
import Anthropic from '@anthropic-ai/sdk';
import { VERSION } from '@anthropic-ai/sdk/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const messages: Anthropic.MessageParam[] = [
  { role: 'user', content: 'How many tokens does this question take, roughly?' },
];
const system = 'You are a terse assistant.';

describe(`@anthropic-ai/sdk ${VERSION} on Node ${process.versions.node}`, () => {
  let gw: StartedGateway;
  let client: Anthropic;
  beforeAll(async () => {
    gw = await startGateway();
    const { key } = await gw.createKey();
    client = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it("countTokens on a Claude model is the upstream's count, as its create reports it", async () => {
    const model = 'claude-haiku-4-5';
    const { data, response } = await client.messages
      .countTokens({ model, system, messages })
      .withResponse();
    expect(response.headers.get('x-modelgate-token-count')).toBe('upstream');
    expect(data.input_tokens).toBeGreaterThan(0);
    const created = await client.messages.create({ model, system, messages, max_tokens: 8 });
    expect(data.input_tokens).toBe(created.usage.input_tokens);
  });

  it("countTokens on a GPT model is the gateway's estimate, labelled so", async () => {
    const { data, response } = await client.messages
      .countTokens({ model: 'gpt-4o-mini', system, messages })
      .withResponse();
    expect(response.headers.get('x-modelgate-token-count')).toBe('estimate');
    expect(data.input_tokens).toBeGreaterThan(0);
  });

  it('the beta client (?beta=true, anthropic-beta) counts and creates with thinking', async () => {
    const model = 'claude-haiku-4-5';
    const counted = await client.beta.messages.countTokens({
      model,
      messages,
      betas: ['token-counting-2024-11-01'],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const message = await client.beta.messages.create({
      model,
      max_tokens: 2048,
      messages,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      betas: ['interleaved-thinking-2025-05-14'],
    });
    const [thinking, text] = message.content;
    expect(thinking?.type).toBe('thinking');
    if (thinking?.type === 'thinking') expect(thinking.signature.length).toBeGreaterThan(0);
    expect(text?.type).toBe('text');
  });
});

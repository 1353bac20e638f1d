/**
 * `@anthropic-ai/sdk`'s newest release, unchanged, against a gateway started as `pnpm start` starts
 * it: `messages.countTokens` on a Claude model (the Anthropic upstream's own count: what the
 * simulator reports as a create's input tokens) and on a GPT model (the gateway's estimate), the
 * beta client's `?beta=true` path with `anthropic-beta`, a message with thinking, and content
 * blocks of kinds the gateway's spec does not list (`search_result`, `document`) as the SDK types
 * them: passed to the Claude model, their text kept (or dropped and listed) for the GPT one; and
 * a `system` turn inside `messages` (the SDK's `SystemMessageParam`), which the simulated
 * Anthropic API refuses as the real one does on some models, so the gateway folds it.
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

  const vendorContent: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content: [
        {
          type: 'search_result',
          source: 'https://example.com/weather',
          title: 'Weather',
          content: [{ type: 'text', text: 'Sunny in Paris.' }],
          citations: { enabled: true },
          cache_control: { type: 'ephemeral' },
        },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
          title: 'Report',
        },
        { type: 'text', text: 'What is the weather in Paris?' },
      ],
    },
  ];

  it('search_result and document blocks are answered on a Claude model', async () => {
    const { data, response } = await client.messages
      .create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: vendorContent })
      .withResponse();
    expect(data.type).toBe('message');
    expect(data.content.length).toBeGreaterThan(0);
    expect(response.headers.get('x-modelgate-dropped-params')).toBeNull();
  });

  it('on a GPT model the search result is text and the PDF is dropped and listed', async () => {
    const { data, response } = await client.messages
      .create({ model: 'gpt-4o-mini', max_tokens: 16, messages: vendorContent })
      .withResponse();
    expect(data.type).toBe('message');
    expect(response.headers.get('x-modelgate-dropped-params')).toBe(
      'messages.*.content.*(document)',
    );
  });

  it('a system turn inside messages is answered on a Claude and a GPT model', async () => {
    const withSystemTurn: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'Say hello.' },
    ];
    for (const model of ['claude-haiku-4-5', 'gpt-4o-mini']) {
      const message = await client.messages.create({
        model,
        max_tokens: 16,
        messages: withSystemTurn,
      });
      expect(message.type).toBe('message');
      const counted = await client.messages.countTokens({ model, messages: withSystemTurn });
      expect(counted.input_tokens).toBeGreaterThan(0);
    }
  });
});

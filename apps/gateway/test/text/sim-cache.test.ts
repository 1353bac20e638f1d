/**
 * Prompt caching end to end against the simulator: a Claude prompt with `cache_control` is written
 * then read back through the gateway (natively and from a chat client), an OpenAI prompt repeated is
 * cached, and each request's charge is its usage at the model's cache-aware price.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const LONG = 'river '.repeat(3000);

describe('prompt caching through the gateway, against the simulator', () => {
  let gw: TestGateway;
  let key: string;
  let anthropic: Anthropic;
  let openai: OpenAI;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
    anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  async function units(requestId: string | null | undefined): Promise<number> {
    const rows = await vi.waitFor(
      async () => {
        const found = await gw.services.db
          .selectFrom('usage')
          .selectAll()
          .where('request_id', '=', requestId!)
          .execute();
        expect(found).toHaveLength(1);
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
    return Number(rows[0]!.units);
  }

  it('Claude: the breakpoint prefix is written, then read; charged 1.25 × and 0.1 × input', async () => {
    const ask = (stream: boolean, tag: string) => {
      const body = {
        model: 'claude-sonnet-4-5',
        max_tokens: 20,
        system: [
          {
            type: 'text' as const,
            text: `${tag} ${LONG}`,
            cache_control: { type: 'ephemeral' as const },
          },
        ],
        messages: [{ role: 'user' as const, content: 'Hi' }],
      };
      return stream
        ? anthropic.messages.stream(body).withResponse()
        : anthropic.messages.create(body).withResponse();
    };
    for (const stream of [false, true]) {
      const tag = stream ? 'streamed' : 'plain';
      const first = await ask(stream, tag);
      const second = await ask(stream, tag);
      const [m1, m2] = await Promise.all(
        [first, second].map(async (r) =>
          'finalMessage' in r.data ? r.data.finalMessage() : r.data,
        ),
      );
      const written = m1!.usage.cache_creation?.ephemeral_5m_input_tokens ?? 0;
      expect(written).toBeGreaterThanOrEqual(1024);
      expect(m1!.usage.cache_creation_input_tokens).toBe(written);
      expect(m2!.usage.cache_read_input_tokens).toBe(written);
      // Demo price: input 1, output 4 credits per million tokens = units per token.
      const cost = (u: Anthropic.Usage) =>
        Math.ceil(
          u.input_tokens +
            (u.cache_read_input_tokens ?? 0) * 0.1 +
            (u.cache_creation?.ephemeral_5m_input_tokens ?? 0) * 1.25 +
            (u.cache_creation?.ephemeral_1h_input_tokens ?? 0) * 2 +
            u.output_tokens * 4,
        );
      expect(await units(first.response.headers.get('x-request-id'))).toBe(cost(m1!.usage));
      expect(await units(second.response.headers.get('x-request-id'))).toBe(cost(m2!.usage));
    }
  });

  it('gpt-4o-mini: a repeated long prompt is cached and charged 0.5 × input', async () => {
    const messages = [
      { role: 'system' as const, content: LONG },
      { role: 'user' as const, content: 'Hi' },
    ];
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 20 });
    const { data, response } = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages, max_tokens: 20 })
      .withResponse();
    const cached = data.usage!.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBeGreaterThanOrEqual(1024);
    const expected = Math.ceil(
      data.usage!.prompt_tokens - cached + cached * 0.5 + data.usage!.completion_tokens * 4,
    );
    expect(await units(response.headers.get('x-request-id'))).toBe(expected);
  });
});

// Prompt caching as the real APIs report it: Anthropic writes the prefix up to a `cache_control`
// breakpoint (by its ttl) and reads it back; OpenAI reports a repeated prefix of 1,024+ tokens as
// cached, in 128-token steps. Field names as `@anthropic-ai/sdk`'s `Usage` / `CacheCreation` and
// `openai`'s `CompletionUsage` / `ResponseUsage` type them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { PromptCache } from '../src/text/prompt-cache.js';
import { postJson } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const anthropicHeaders = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
const openAiHeaders = { authorization: 'Bearer sk-test' };
/** About 2,000 tokens, unique per test so tests never share a cache entry. */
const longText = (tag: string) => `${tag} `.repeat(2000);

interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
}

async function claude(body: Record<string, unknown>): Promise<AnthropicUsage> {
  const res = await postJson(
    `${sim.url}/anthropic/v1/messages`,
    { model: 'claude-sonnet-4-5', max_tokens: 64, ...body },
    anthropicHeaders,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { usage: AnthropicUsage }).usage;
}

describe('Anthropic prompt caching', () => {
  it('writes the prefix up to a breakpoint on first sight and reads it after', async () => {
    const system = [
      { type: 'text', text: longText('alpha'), cache_control: { type: 'ephemeral' } },
    ];
    const first = await claude({ system, messages: [{ role: 'user', content: 'Hi' }] });
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThanOrEqual(1024);
    expect(first.cache_creation).toEqual({
      ephemeral_5m_input_tokens: first.cache_creation_input_tokens,
      ephemeral_1h_input_tokens: 0,
    });
    const second = await claude({ system, messages: [{ role: 'user', content: 'Hello again' }] });
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(0);
    // Plain input is what follows the cached prefix: the user turn only.
    expect(second.input_tokens).toBeLessThan(20);
  });

  it('splits writes by ttl and reads a moved breakpoint from an earlier boundary', async () => {
    const system = [
      { type: 'text', text: longText('beta'), cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const turn = (text: string, cached: boolean) => ({
      role: 'user',
      content: [
        { type: 'text', text, ...(cached ? { cache_control: { type: 'ephemeral' } } : {}) },
      ],
    });
    const first = await claude({ system, messages: [turn(longText('gamma'), true)] });
    expect(first.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThanOrEqual(1024);
    expect(first.cache_creation.ephemeral_5m_input_tokens).toBeGreaterThanOrEqual(1024);
    expect(first.cache_creation_input_tokens).toBe(
      first.cache_creation.ephemeral_1h_input_tokens +
        first.cache_creation.ephemeral_5m_input_tokens,
    );
    // The next turn moves the breakpoint to its own last block, as agents do: all before it is read.
    const next = await claude({
      system,
      messages: [
        turn(longText('gamma'), false),
        { role: 'assistant', content: 'Noted.' },
        turn('And now?', true),
      ],
    });
    expect(next.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(next.input_tokens).toBe(0);
    expect(next.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('caches nothing below the minimum, nor without a breakpoint', async () => {
    const short = [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }];
    for (let i = 0; i < 2; i++) {
      const usage = await claude({ system: short, messages: [{ role: 'user', content: 'Hi' }] });
      expect(usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(0);
    }
    for (let i = 0; i < 2; i++) {
      const usage = await claude({
        system: longText('delta'),
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(0);
    }
  });

  it('an entry expires after its ttl', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const segments = [{ content: 'x', tokens: 2000, breakpoint: '5m' as const }];
    expect(cache.anthropic('m', segments, 2000, 1024).cache_creation_input_tokens).toBe(2000);
    now += 4 * 60_000;
    expect(cache.anthropic('m', segments, 2000, 1024).cache_read_input_tokens).toBe(2000);
    now += 6 * 60_000; // the read refreshed it: 6 minutes after that read it is gone
    expect(cache.anthropic('m', segments, 2000, 1024).cache_creation_input_tokens).toBe(2000);
  });
});

describe('OpenAI prompt caching', () => {
  it('chat: a repeated prefix of 1,024+ tokens is cached, in 128-token steps', async () => {
    const messages = [
      { role: 'system', content: longText('epsilon') },
      { role: 'user', content: 'Hi' },
    ];
    const ask = async (extra: unknown[]) => {
      const res = await postJson(
        `${sim.url}/openai/v1/chat/completions`,
        { model: 'gpt-4o-mini', messages: [...messages, ...extra] },
        openAiHeaders,
      );
      expect(res.status).toBe(200);
      return (
        (await res.json()) as {
          usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
        }
      ).usage;
    };
    const first = await ask([]);
    expect(first.prompt_tokens_details.cached_tokens).toBe(0);
    const second = await ask([
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'More' },
    ]);
    const cached = second.prompt_tokens_details.cached_tokens;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect((cached - 1024) % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(first.prompt_tokens);
    expect(cached).toBeGreaterThan(first.prompt_tokens - 128);
  });

  it('responses: input_tokens_details.cached_tokens on a repeated long input', async () => {
    const ask = async () => {
      const res = await postJson(
        `${sim.url}/openai/v1/responses`,
        { model: 'gpt-4o-mini', instructions: longText('zeta'), input: 'Hi' },
        openAiHeaders,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { usage: { input_tokens_details: { cached_tokens: number } } })
        .usage.input_tokens_details.cached_tokens;
    };
    expect(await ask()).toBe(0);
    const cached = await ask();
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect((cached - 1024) % 128).toBe(0);
  });
});

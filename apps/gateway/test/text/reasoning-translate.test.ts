/**
 * Reasoning across formats (translate/reasoning.ts, docs/formats.md "Reasoning"): thinking and
 * output_config.effort become reasoning_effort on a chat upstream, reasoning_effort becomes a
 * thinking budget on a messages upstream (within max_tokens, without the sampling settings
 * thinking forbids); what cannot map is listed in x-modelgate-dropped-params, never refused.
 * Tool results holding images reach a chat upstream as image parts.
 */
import { zCreateChatCompletionRequest, zCreateMessageRequest } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyThinking, chatReasoningOf } from '../../src/translate/reasoning.js';
import { anthropicToChatRequest, chatToAnthropicRequest } from '../../src/translate/request.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const hi = [{ role: 'user', content: 'Hi' }];
const messages = (extra: Record<string, unknown>) =>
  zCreateMessageRequest.parse({ model: 'm', max_tokens: 20_000, messages: hi, ...extra });
const chat = (extra: Record<string, unknown>) =>
  zCreateChatCompletionRequest.parse({ model: 'm', messages: hi, ...extra });

describe('messages → chat: thinking and effort as reasoning_effort', () => {
  const effortOf = (extra: Record<string, unknown>) =>
    anthropicToChatRequest(messages(extra), 'up').reasoning_effort;

  it('maps a budget by the table', () => {
    const cases: Array<[number, string]> = [
      [1_024, 'low'],
      [4_095, 'low'],
      [4_096, 'medium'],
      [16_383, 'medium'],
      [16_384, 'high'],
      [32_768, 'xhigh'],
    ];
    for (const [budget, effort] of cases) {
      expect(
        effortOf({ thinking: { type: 'enabled', budget_tokens: budget } }),
        String(budget),
      ).toBe(effort);
    }
  });

  it('takes output_config.effort first (max → xhigh), leaves adaptive alone and disabled off', () => {
    expect(effortOf({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } })).toBe(
      'low',
    );
    expect(effortOf({ output_config: { effort: 'max' } })).toBe('xhigh');
    expect(
      effortOf({
        thinking: { type: 'enabled', budget_tokens: 30_000 },
        output_config: { effort: 'medium' },
      }),
    ).toBe('medium');
    expect(effortOf({ thinking: { type: 'adaptive' } })).toBeUndefined();
    expect(effortOf({ thinking: { type: 'disabled' } })).toBeUndefined();
  });

  it('lists what does not map', () => {
    expect(
      chatReasoningOf(
        messages({
          thinking: { type: 'between_tools' },
          output_config: { effort: 'extreme', format: { type: 'json_schema' } },
        }),
      ).dropped,
    ).toEqual(['output_config.format', 'output_config.effort', 'thinking']);
  });
});

describe('chat → messages: reasoning_effort as a thinking budget', () => {
  const translate = (extra: Record<string, unknown>) => {
    const request = chat(extra);
    const body = chatToAnthropicRequest(request, { upstreamModel: 'up', defaultMaxTokens: 64_000 });
    return { body, dropped: applyThinking(request, body) };
  };

  it('turns a level into its budget and leaves out temperature and a low top_p', () => {
    const { body, dropped } = translate({
      reasoning_effort: 'medium',
      temperature: 0.2,
      top_p: 0.5,
    });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_096 });
    expect(body.temperature).toBeUndefined();
    expect(body.top_p).toBeUndefined();
    expect(dropped).toEqual(['temperature', 'top_p']);
    const kept = translate({ reasoning_effort: 'high', temperature: 1, top_p: 0.97 });
    expect(kept.body).toMatchObject({ temperature: 1, top_p: 0.97 });
    expect(kept.dropped).toEqual([]);
  });

  it('keeps the budget under max_tokens, and thinks not at all below 1,024 or with a forced tool', () => {
    expect(translate({ reasoning_effort: 'high', max_tokens: 5_000 }).body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4_999,
    });
    const small = translate({ reasoning_effort: 'low', max_tokens: 1_000, temperature: 0.3 });
    expect(small.body.thinking).toBeUndefined();
    expect(small.body.temperature).toBe(0.3);
    expect(small.dropped).toEqual(['reasoning_effort']);
    const forced = translate({
      reasoning_effort: 'low',
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'required',
    });
    expect(forced.body.thinking).toBeUndefined();
    expect(forced.dropped).toEqual(['reasoning_effort']);
    expect(translate({ reasoning_effort: 'none' }).body.thinking).toBeUndefined();
  });
});

describe('tool results with images on a chat upstream', () => {
  it('become a tool message with the text and image parts in the user message after it', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    const body = messages({
      messages: [
        { role: 'user', content: 'Look' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'text', text: 'A screenshot:' }, image],
            },
            { type: 'text', text: 'What is on it?' },
          ],
        },
      ],
    });
    const out = anthropicToChatRequest(body, 'up').messages;
    expect(out.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'A screenshot:' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          { type: 'text', text: 'What is on it?' },
        ],
      },
    ]);
  });
});

describe('through the gateway', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    key = (await gw.createKey()).key;
  });
  afterAll(() => gw?.close());

  it('a Claude Code style request on a GPT model is answered, context_management listed', async () => {
    const res = await gw.fetch('/v1/messages?beta=true', {
      method: 'POST',
      key,
      headers: { 'anthropic-beta': 'context-management-2025-06-27' },
      json: {
        model: 'gpt-4o-mini',
        max_tokens: 64,
        messages: hi,
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high', format: { type: 'json_schema', schema: {} } },
        context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('x-modelgate-dropped-params')?.split(',').sort()).toEqual([
      'context_management',
      'output_config.format',
    ]);
  });

  it('reasoning_effort on a Claude model thinks, and temperature is listed as dropped', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model: 'claude-sonnet-4-5', messages: hi, reasoning_effort: 'low', temperature: 0.1 },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('x-modelgate-dropped-params')).toBe('temperature');
  });
});

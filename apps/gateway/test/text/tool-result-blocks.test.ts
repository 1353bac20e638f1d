/**
 * A tool result whose content holds block kinds the vendor added (Claude Code's ToolSearch answers
 * with `tool_reference` blocks): accepted on both kinds of model, the text kept in translation.
 */
import { zCreateMessageRequest } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToChatRequest } from '../../src/translate/request.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const conversation = (model: string) => ({
  model,
  max_tokens: 32,
  tools: [
    {
      name: 'ToolSearch',
      description: 'Finds tools.',
      input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ],
  messages: [
    { role: 'user', content: 'Find a weather tool.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: { query: 'weather' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'Found one.' },
            { type: 'tool_reference', tool_name: 'get_weather' },
          ],
        },
      ],
    },
  ],
});

describe('tool results with newer block kinds', () => {
  it('pass the spec schema, and translate to the tool message text', () => {
    const body = zCreateMessageRequest.parse(conversation('gpt-4o-mini'));
    const chat = anthropicToChatRequest(body, 'gpt-4o-mini');
    expect(chat.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_1',
      content: 'Found one.',
    });
  });

  describe('through the gateway', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway();
    });
    afterAll(() => gw?.close());

    for (const model of ['claude-sonnet-4-5', 'gpt-4o-mini']) {
      it(`are answered on ${model}`, async () => {
        const { key } = await gw.createKey();
        const res = await gw.fetch('/v1/messages', {
          method: 'POST',
          key,
          json: conversation(model),
        });
        const text = await res.text();
        expect(res.status, text).toBe(200);
        expect(JSON.parse(text)).toMatchObject({ type: 'message', role: 'assistant' });
      });
    }
  });
});

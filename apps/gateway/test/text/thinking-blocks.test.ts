/**
 * Thinking blocks sent back in an assistant turn (as agents with extended thinking do): accepted by
 * the spec's schema, passed byte for byte to a messages upstream, left out for a chat upstream.
 */
import { zCreateMessageRequest } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToChatRequest } from '../../src/translate/request.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const conversation = (model: string) => ({
  model,
  max_tokens: 32,
  messages: [
    { role: 'user', content: 'Hi' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'A greeting.', signature: 'EqQBCkYIAxgCIkA+/=' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'text', text: 'Hello!' },
      ],
    },
    { role: 'user', content: 'Again.' },
  ],
});

describe('thinking blocks in an assistant turn', () => {
  it('pass the schema unchanged and are left out of a chat request', () => {
    const body = zCreateMessageRequest.parse(conversation('gpt-4o-mini'));
    expect(body.messages[1]).toEqual(conversation('x').messages[1]);
    const chat = anthropicToChatRequest(body, 'gpt-4o-mini');
    expect(chat.messages[1]).toEqual({ role: 'assistant', content: 'Hello!' });
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
      });
    }
  });
});

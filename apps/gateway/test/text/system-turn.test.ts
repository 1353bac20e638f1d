/**
 * A `system` turn inside a messages conversation (Claude Code sends them): accepted by the spec's
 * schema, and kept in place as a system message when an OpenAI-compatible model serves it.
 */
import { zCreateMessageRequest } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToChatRequest } from '../../src/translate/request.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const body = zCreateMessageRequest.parse({
  model: 'gpt-4o-mini',
  max_tokens: 32,
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'system', content: [{ type: 'text', text: 'The user prefers French.' }] },
    { role: 'user', content: 'Say hello.' },
  ],
});

describe('a system turn in messages', () => {
  it('becomes a system message in its place on a chat upstream', () => {
    const chat = anthropicToChatRequest(body, 'gpt-4o-mini');
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'The user prefers French.' },
      { role: 'user', content: 'Say hello.' },
    ]);
  });

  describe('through the gateway', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway();
    });
    afterAll(() => gw?.close());

    it('is answered on a GPT model, plain and streamed', async () => {
      const { key } = await gw.createKey();
      for (const stream of [false, true]) {
        const res = await gw.fetch('/v1/messages', {
          method: 'POST',
          key,
          json: { ...body, stream },
        });
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).toContain(stream ? 'message_stop' : '"type":"message"');
      }
    });
  });
});

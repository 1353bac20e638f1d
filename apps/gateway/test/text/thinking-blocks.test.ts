/**
 * Thinking blocks sent back in an assistant turn (as agents with extended thinking do): accepted by
 * the spec's schema, passed byte for byte to a messages upstream, left out for a chat upstream.
 * The other way, the thinking blocks a messages upstream answers with (the simulator's, signatures
 * and redacted_thinking included) reach the client byte for byte, streamed `signature_delta` too;
 * a chat client on the same model gets the text without them.
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

    const thinkingRequest = (stream: boolean) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      stream,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [
        {
          role: 'user',
          content:
            'Think. ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253',
        },
      ],
    });
    const direct = (body: unknown) =>
      fetch(`${gw.simulatorUrl}/anthropic/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-sim', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
    /** The stream's thinking events as they are on the wire (the message id differs per request). */
    const thinkingLines = (text: string) =>
      text
        .split('\n\n')
        .filter((frame) => /thinking|signature_delta|"index":[01]/.test(frame))
        .filter((frame) => !frame.includes('message_start'));

    it("passes the upstream's thinking blocks to the client unchanged", async () => {
      const { key } = await gw.createKey();
      const res = await gw.fetch('/v1/messages', {
        method: 'POST',
        key,
        json: thinkingRequest(false),
      });
      expect(res.status).toBe(200);
      const got = (await res.json()) as { content: unknown[] };
      const upstream = (await (await direct(thinkingRequest(false))).json()) as {
        content: unknown[];
      };
      expect(got.content.slice(0, 2)).toEqual(upstream.content.slice(0, 2));
      expect(got.content.map((b) => (b as { type: string }).type)).toEqual([
        'thinking',
        'redacted_thinking',
        'text',
      ]);
    });

    it('streams thinking_delta and signature_delta events byte for byte', async () => {
      const { key } = await gw.createKey();
      const res = await gw.fetch('/v1/messages', {
        method: 'POST',
        key,
        json: thinkingRequest(true),
      });
      expect(res.status).toBe(200);
      const got = thinkingLines(await res.text());
      const upstream = thinkingLines(await (await direct(thinkingRequest(true))).text());
      expect(got.some((frame) => frame.includes('"signature_delta"'))).toBe(true);
      expect(got.some((frame) => frame.includes('"redacted_thinking"'))).toBe(true);
      expect(got).toEqual(upstream);
    });

    it('a chat client on the same model gets the text without the thinking', async () => {
      const { key } = await gw.createKey();
      for (const stream of [false, true]) {
        const res = await gw.fetch('/v1/chat/completions', {
          method: 'POST',
          key,
          json: {
            model: 'claude-sonnet-4-5',
            reasoning_effort: 'low',
            stream,
            messages: [{ role: 'user', content: 'Hi' }],
          },
        });
        const text = await res.text();
        expect(res.status, text).toBe(200);
        expect(text).not.toContain('signature');
        expect(text).not.toContain('A short, plain answer fits');
      }
    });

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

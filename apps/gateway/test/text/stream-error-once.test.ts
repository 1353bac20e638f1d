/**
 * A stream the upstream fails midway (its own in-stream error event) ends with exactly one error
 * event in the client's format: on chat and messages, passed through and translated.
 */
import { zErrorType } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const CASES = [
  { path: '/v1/chat/completions', model: 'gpt-4o-mini', upstream: '/openai' },
  { path: '/v1/chat/completions', model: 'claude-sonnet-4-5', upstream: '/anthropic' },
  { path: '/v1/messages', model: 'claude-sonnet-4-5', upstream: '/anthropic' },
  { path: '/v1/messages', model: 'gpt-4o-mini', upstream: '/openai' },
] as const;

/** The error events of a streamed answer, in either format. */
function errorEvents(text: string): Array<{ type: string; message: string }> {
  const out: Array<{ type: string; message: string }> = [];
  for (const block of text.split('\n\n')) {
    const data = block.split('\n').find((line) => line.startsWith('data: '));
    if (!data || data === 'data: [DONE]') continue;
    const parsed = JSON.parse(data.slice(6)) as { error?: { type: string; message: string } };
    if (parsed.error) out.push(parsed.error);
  }
  return out;
}

describe('a failed stream', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  for (const { path, model, upstream } of CASES) {
    it(`ends with one error event: ${path} on ${model}`, async () => {
      gw.simulator!.faults.add({
        kind: 'stream-error',
        afterChunks: 2,
        message: 'The server had an error while processing your request.',
        count: 1,
        match: { path: upstream },
      });
      const res = await gw.fetch(path, {
        method: 'POST',
        key,
        json: {
          model,
          max_tokens: 64,
          stream: true,
          messages: [{ role: 'user', content: 'Tell me a long story about a lighthouse.' }],
        },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      const errors = errorEvents(text);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain('server had an error');
      // Our error types only (the vendor's server_error becomes upstream_error).
      expect(zErrorType.options).toContain(errors[0]?.type);
      expect(errors[0]?.type).not.toBe('server_error');
      expect(text).not.toContain('[DONE]');
    });
  }
});

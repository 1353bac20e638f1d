/**
 * A stream cut short before the upstream reported usage (an OpenAI-format stream reports it only in
 * its last chunk) is billed for the prompt as the upstream counts it: the text's tokens plus the
 * per-message framing — the same number the upstream reports for the whole request.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const MODEL = 'gpt-4o-mini';

describe('prompt tokens of a stream cut short', () => {
  let gw: TestGateway;
  let key: string;
  let keyId: number;
  beforeAll(async () => {
    // Paced tokens, so the cut lands well after the first bytes reached the client (no failover):
    // 10 chunks at 100 tokens/s leave about 100 ms, which a loaded CI machine needed (3 chunks at
    // 200/s left 15 ms, and the cut sometimes came before the gateway had read the first chunk).
    gw = await startTestGateway({ simulator: { tokensPerSecond: 100 } });
    ({ key, id: keyId } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  const usage = () =>
    gw.services.db.selectFrom('usage').selectAll().where('key_id', '=', keyId).execute();

  /** The upstream's own prompt count, from an uncut non-streamed answer. */
  async function upstreamPromptTokens(path: string, body: Record<string, unknown>) {
    const res = await gw.fetch(path, { method: 'POST', key, json: body });
    expect(res.status).toBe(200);
    const json = (await res.json()) as {
      usage: { prompt_tokens?: number; input_tokens?: number };
    };
    return json.usage.prompt_tokens ?? json.usage.input_tokens!;
  }

  async function cutAndBill(path: string, body: Record<string, unknown>): Promise<number> {
    gw.simulator!.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 10,
      count: 1,
      match: { model: MODEL },
    });
    const res = await gw.fetch(path, { method: 'POST', key, json: { ...body, stream: true } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(await res.text()).not.toContain('[DONE]'); // cut: ends with an error event
    const row = await vi.waitFor(
      async () => {
        const found = (await usage()).find((r) => r.request_id === requestId);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 5000, interval: 20 },
    );
    return Number(row.input_tokens);
  }

  it('chat: the billed prompt matches the upstream count', async () => {
    const body = {
      model: MODEL,
      max_tokens: 30,
      messages: [
        { role: 'developer', content: 'Be brief and friendly.' },
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'Tell me about rivers.' },
      ],
    };
    const expected = await upstreamPromptTokens('/v1/chat/completions', body);
    expect(await cutAndBill('/v1/chat/completions', body)).toBe(expected);
  });

  it('messages translated to an OpenAI-format model: the system prompt is a message too', async () => {
    const body = {
      model: MODEL,
      max_tokens: 30,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Hi!' },
        { role: 'user', content: 'Tell me about rivers.' },
      ],
    };
    const expected = await upstreamPromptTokens('/v1/messages', body);
    expect(await cutAndBill('/v1/messages', body)).toBe(expected);
  });
});

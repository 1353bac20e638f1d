/**
 * Streams are written straight to the Node response by the text edge, through the one StreamSink,
 * with every header the edge adds.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NodeStreamSink } from '../../src/http/node-adapter.js';
import type { ChatRequest } from '../../src/translate/wire.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

describe('streamed bodies', () => {
  let gw: TestGateway;
  let key: string;
  let keyId: number;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key, id: keyId } = await gw.createKey({ rpm: 1_000 }));
  });
  afterAll(() => gw?.close());

  const streamed: ChatRequest = {
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Stream a few words' }],
    max_tokens: 8,
    stream: true,
  };

  it('over HTTP: SSE headers from the route and the middleware, events to [DONE]', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', key, json: streamed });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-ratelimit-limit-requests')).not.toBeNull();
    const text = await res.text();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('a client gone before the head was written: the relay stops and the request is settled', async () => {
    const authKey = await gw.services.keys.authenticate(key);
    const answer = await gw.services.text.generate(
      { format: 'chat', body: { ...streamed, max_tokens: 200 } },
      { key: authKey, requestId: 'req_gone_early', startedAt: performance.now() },
    );
    if (answer.kind !== 'stream') throw new Error('expected a streamed answer');
    const sink = new PassThrough();
    sink.destroy();
    // Its 'close' has been emitted already, as for a socket that went away before the head.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.destroyed).toBe(true);
    answer.write(new NodeStreamSink(sink));
    // finalize() ran: the usage row of this request is written (billing what was produced).
    await vi.waitFor(
      async () =>
        expect(
          await gw.services.db
            .selectFrom('usage')
            .select('request_id')
            .where('key_id', '=', keyId)
            .where('request_id', '=', 'req_gone_early')
            .execute(),
        ).toHaveLength(1),
      { timeout: 5_000, interval: 20 },
    );
  });
});

/**
 * Streams are written straight to the Node response by the listener; outside a listener
 * (`app.request()`, embedding) the same Response must still carry a readable SSE body, with every
 * header the middleware added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe('streamed bodies', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey({ rpm: 1_000 }));
  });
  afterAll(() => gw?.close());

  const streamed = {
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

  it('through app.request(): the same stream as a web body', async () => {
    const app = createApp(gw.services);
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(streamed),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThan(2);
    expect(events.at(-1)).toBe('data: [DONE]');
    const first = JSON.parse(events[0]!.replace(/^data: /, '')) as { object: string };
    expect(first.object).toBe('chat.completion.chunk');
  });
});

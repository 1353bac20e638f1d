// Every candidate for the floor (bench/floor-proxy.mjs --via) is a real proxy: a plain answer and
// a streamed one come back as the simulator sent them, so comparing their speed compares equals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stop, stopAll } from '../lib/processes.mjs';
import { chatBody, startSim, startTarget, stopTarget } from '../lib/targets.mjs';

const VIAS = ['undici-stream', 'undici-buffered', 'http-stream', 'http-buffered'];

let sim;
beforeAll(async () => {
  sim = await startSim({ latencyMs: 1, ttftMs: 1, tokensPerSecond: 0, outputTokens: 8 });
});
afterAll(async () => {
  await stop(sim);
  await stopAll();
});

async function post(target, body) {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  };
}

describe.each(VIAS)('floor via %s', (via) => {
  let target;
  let direct;
  beforeAll(async () => {
    target = await startTarget(`floor:${via}`, sim.url, {});
    direct = await startTarget('direct', sim.url, {});
  });
  afterAll(() => stopTarget(target));

  it('relays a plain answer as the simulator sent it', async () => {
    const [proxied, own] = await Promise.all([post(target, chatBody()), post(direct, chatBody())]);
    expect(proxied.status).toBe(200);
    const content = (text) => JSON.parse(text).choices[0].message.content;
    expect(content(proxied.text)).toBe(content(own.text));
  });

  it('relays a stream event by event, to its end', async () => {
    const proxied = await post(target, chatBody({ stream: true }));
    expect(proxied.type).toMatch(/^text\/event-stream/);
    const events = proxied.text.split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThan(2);
    expect(events.at(-1)).toBe('data: [DONE]');
  });
});

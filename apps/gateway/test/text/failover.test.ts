/**
 * Routing against real upstreams: the provider simulator with fault injection, configured as
 * several deployments of one model (YAML `providers` / `models` sections), plus a hand-written
 * slow upstream that records when its client goes away.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { type Simulator, startSimulator } from '@modelgate/provider-sim';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { PushSseParser as SseParser } from '../support/sse.js';

const CHAT = 'POST /openai/v1/chat/completions';

/**
 * An OpenAI-compatible upstream that streams one token every 20 ms for ever (until closed); for
 * the upstream model `stall` it goes silent after three tokens, keeping the connection open.
 */
function startSlowUpstream() {
  const state = { requests: 0, closedEarly: 0, chunksSent: 0 };
  const server: Server = createServer(async (req, res) => {
    state.requests++;
    let raw = '';
    for await (const part of req) raw += part;
    const stall = (JSON.parse(raw) as { model?: string }).model === 'stall';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const timer = setInterval(() => {
      if (stall && i >= 3) return;
      const chunk = {
        id: 'chatcmpl-slow',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'slow',
        choices: [{ index: 0, delta: { content: ` word${i++}` }, finish_reason: null }],
        usage: null,
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      state.chunksSent++;
    }, 20);
    res.on('close', () => {
      clearInterval(timer);
      if (!res.writableFinished) state.closedEarly++;
    });
  });
  return new Promise<{ url: string; state: typeof state; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        state,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

function yamlSections(sim: string, slow: string, paced: string) {
  const openai = (extra: Record<string, unknown> = {}) => ({
    kind: 'openai',
    base_url: `${sim}/openai/v1`,
    api_key: 'sk-sim',
    ...extra,
  });
  return {
    providers: {
      a: openai(),
      b: openai(),
      quick: openai({ timeouts: { first_byte_ms: 300 } }),
      claude: { kind: 'anthropic', base_url: `${sim}/anthropic`, api_key: 'sk-sim' },
      slow: { kind: 'openai', base_url: slow, api_key: 'sk-slow' },
      stalling: { kind: 'openai', base_url: slow, api_key: 'sk-slow', timeouts: { idle_ms: 300 } },
      // A simulator that paces tokens (10 ms apart), so a drop comes after the first byte went out.
      paced: { kind: 'openai', base_url: `${paced}/openai/v1`, api_key: 'sk-sim' },
      pacedClaude: { kind: 'anthropic', base_url: `${paced}/anthropic`, api_key: 'sk-sim' },
      wrongKey: { kind: 'openai', base_url: `${paced}/openai/v1`, api_key: 'sk-wrong-secret-123' },
    },
    models: [
      // b has weight 0: only ever the fallback, so "A first, then B" is deterministic.
      // Each test has its own deployments, so one test's failures never cool another's down.
      {
        id: 'cut',
        deployments: [
          { provider: 'paced', model: 'cut-a', weight: 1 },
          { provider: 'b', model: 'cut-b', weight: 0 },
        ],
        price: { input_per_million: 2, output_per_million: 10 },
      },
      {
        id: 'wrong-key',
        deployments: [{ provider: 'wrongKey', model: 'wk' }],
        price: { input_per_million: 1, output_per_million: 1 },
      },
      {
        id: 'cut-claude',
        deployments: [{ provider: 'pacedClaude', model: 'cut-claude' }],
        price: { input_per_million: 2, output_per_million: 10 },
      },
      ...['duo', 'duo-stream', 'duo-limited'].map((id) => ({
        id,
        deployments: [
          { provider: 'a', model: `${id}-a`, weight: 1 },
          { provider: 'b', model: `${id}-b`, weight: 0 },
        ],
        price: { input_per_million: 2, output_per_million: 10 },
      })),
      {
        id: 'mixed',
        deployments: [
          { provider: 'a', model: 'up-mixed', weight: 1 },
          { provider: 'claude', model: 'claude-up', weight: 0 },
        ],
        price: { input_per_million: 2, output_per_million: 10 },
      },
      {
        id: 'solo',
        deployments: [{ provider: 'a', model: 'up-solo' }],
        price: { input_per_million: 2, output_per_million: 10 },
      },
      {
        id: 'breaker',
        deployments: [
          { provider: 'a', model: 'up-brk-a', weight: 1 },
          { provider: 'b', model: 'up-brk-b', weight: 0 },
        ],
        price: { input_per_million: 1, output_per_million: 1 },
      },
      {
        id: 'hangs',
        deployments: [{ provider: 'quick', model: 'up-hang' }],
        price: { input_per_million: 1, output_per_million: 1 },
      },
      {
        id: 'stall',
        deployments: [{ provider: 'stalling', model: 'stall' }],
        price: { input_per_million: 1, output_per_million: 1 },
      },
      {
        id: 'slow',
        deployments: [{ provider: 'slow', model: 'slow' }],
        price: { input_per_million: 1, output_per_million: 1 },
      },
    ],
  };
}

describe.each(eachDatabase())('failover and cut-short streams on $name', (database) => {
  let sim: Simulator;
  let paced: Simulator;
  let slow: Awaited<ReturnType<typeof startSlowUpstream>>;
  let gw: TestGateway;
  let key: string;
  let keyId: number;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1' });
    slow = await startSlowUpstream();
    // It accepts only the key `sk-sim`: every call through it proves the adapters' auth headers.
    paced = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      tokensPerSecond: 100,
      requireKey: 'sk-sim',
    });
    gw = await startTestGateway({
      database,
      simulator: false,
      env: { MODELGATE_BREAKER_FAILURES: '2', MODELGATE_BREAKER_COOLDOWN_MS: '60000' },
      config: { demoMode: false, file: yamlSections(sim.url, slow.url, paced.url) },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
    await slow?.close();
    await paced?.close();
  });
  beforeEach(async () => {
    sim.faults.clear();
    paced.faults.clear();
    ({ key, id: keyId } = await gw.createKey());
  });

  const chat = (model: string, extra: Record<string, unknown> = {}) =>
    gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 10, ...extra },
    });
  const routeCount = (route: string) => sim.stats().routes[route] ?? 0;
  const usage = () =>
    gw.services.db.selectFrom('usage').selectAll().where('key_id', '=', keyId).execute();

  it('a 500 from deployment A goes to B before the first byte', async () => {
    sim.faults.add({ kind: 'status', status: 500, count: 1, match: { model: 'duo-a' } });
    const before = routeCount(CHAT);
    const res = await chat('duo');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: string };
    expect(body.model).toBe('duo-b');
    expect(routeCount(CHAT) - before).toBe(2);
  });

  it('a 429 from A goes to B, streaming too; a drop before the first chunk also fails over', async () => {
    sim.faults.add({
      kind: 'status',
      status: 429,
      retryAfter: 3,
      count: 1,
      match: { model: 'duo-stream-a' },
    });
    const res = await chat('duo-stream', { stream: true });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"model":"duo-stream-b"');
    sim.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 0,
      count: 1,
      match: { model: 'duo-stream-a' },
    });
    const dropped = await chat('duo-stream', { stream: true });
    expect(dropped.status).toBe(200);
    expect(await dropped.text()).toContain('data: [DONE]');
  });

  it('fails over across provider kinds (OpenAI deployment → Anthropic deployment)', async () => {
    sim.faults.add({ kind: 'status', status: 503, count: 1, match: { model: 'up-mixed' } });
    const res = await chat('mixed');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; model: string };
    expect(body).toMatchObject({ object: 'chat.completion', model: 'claude-up' });
  });

  it('all deployments rate limited → 429 with Retry-After; all failing → 502; nothing billed', async () => {
    sim.faults.add({
      kind: 'status',
      status: 429,
      retryAfter: 7,
      count: 2,
      match: { path: '/openai' },
    });
    const limited = await chat('duo-limited');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(((await limited.json()) as { error: { type: string } }).error.type).toBe(
      'rate_limit_error',
    );
    sim.faults.add({ kind: 'status', status: 500, count: 1, match: { model: 'up-solo' } });
    const failed = await chat('solo');
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: { type: string } }).error.type).toBe(
      'upstream_error',
    );
    // Refunds land after the error response: wait for the balance to come back to zero.
    await vi.waitFor(
      async () => {
        await gw.services.billing.returnIdleLease(keyId);
        const row = await gw.services.db
          .selectFrom('api_keys')
          .select('used')
          .where('id', '=', keyId)
          .executeTakeFirstOrThrow();
        expect(Number(row.used)).toBe(0);
      },
      { timeout: 5000, interval: 10 },
    );
    expect(await usage()).toHaveLength(0);
  });

  it('a deployment that never answers times out (first-byte timeout) → 504', async () => {
    sim.faults.add({ kind: 'hang', count: 1, match: { model: 'up-hang' } });
    const res = await chat('hangs');
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('upstream_timeout');
  });

  it('a repeatedly failing deployment is cooled down and skipped', async () => {
    sim.faults.add({ kind: 'status', status: 500, match: { model: 'up-brk-a' } });
    expect((await chat('breaker')).status).toBe(200);
    expect((await chat('breaker')).status).toBe(200); // second failure of A: circuit opens
    const before = routeCount(CHAT);
    expect((await chat('breaker')).status).toBe(200);
    expect(routeCount(CHAT) - before).toBe(1); // straight to B
  });

  it('after the first byte there is no failover: the stream ends with an error, billed for what was produced', async () => {
    paced.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 4,
      count: 1,
      match: { model: 'cut-a' },
    });
    const before = routeCount(CHAT);
    const client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'cut',
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 30,
      stream: true,
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(text.length).toBeGreaterThan(0);
    expect(routeCount(CHAT) - before).toBe(0); // B was never tried
    expect(paced.stats().routes[CHAT]).toBe(1);
    // The SDK throws on the error event; settlement lands as the gateway closes the stream.
    await vi.waitFor(async () => expect(await usage()).toHaveLength(1), {
      timeout: 5000,
      interval: 20,
    });
    const rows = await usage();
    expect(Number(rows[0]!.output_tokens)).toBeGreaterThan(0);
    expect(Number(rows[0]!.output_tokens)).toBeLessThan(30);
    expect(Number(rows[0]!.units)).toBe(
      Number(rows[0]!.input_tokens) * 2 + Number(rows[0]!.output_tokens) * 10,
    );
  });

  it('an Anthropic stream cut short ends with an error event, natively and translated to chat', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
    paced.faults.add({
      kind: 'drop-mid-stream',
      afterChunks: 5,
      count: 2,
      match: { model: 'cut-claude' },
    });
    const stream = anthropic.messages.stream({
      model: 'cut-claude',
      max_tokens: 30,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    stream.on('text', (t) => {
      text += t;
    });
    const error = await stream.finalMessage().catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(text.length).toBeGreaterThan(0);

    const res = await chat('cut-claude', { stream: true, max_tokens: 30 });
    const body = await res.text();
    expect(body).toContain('"error"');
    expect(body).not.toContain('[DONE]');
    await vi.waitFor(async () => expect(await usage()).toHaveLength(2), {
      timeout: 5000,
      interval: 20,
    });
    const rows = await usage();
    expect(rows.every((r) => Number(r.output_tokens) > 0 && Number(r.output_tokens) < 30)).toBe(
      true,
    );
  });

  it('a provider refusing the gateway credentials → 502 that does not echo the key', async () => {
    const res = await chat('wrong-key');
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).toContain('upstream_error');
    expect(text).not.toContain('sk-wrong');
  });

  it('an upstream that goes silent mid-stream hits the idle timeout: in-band upstream_timeout', async () => {
    const res = await chat('stall', { stream: true });
    expect(res.status).toBe(200);
    const events = new SseParser().push(await res.text());
    const last = JSON.parse(events.at(-1)!.data) as { error?: { type: string } };
    expect(last.error?.type).toBe('upstream_timeout');
    expect(events.slice(0, -1).map((e) => JSON.parse(e.data).choices[0].delta.content)).toEqual([
      ' word0',
      ' word1',
      ' word2',
    ]);
    await vi.waitFor(async () => expect(await usage()).toHaveLength(1), {
      timeout: 5000,
      interval: 20,
    });
    expect(Number((await usage())[0]!.output_tokens)).toBeGreaterThanOrEqual(3);
  });

  it('a client that disconnects aborts the upstream request and is billed for the tokens produced', async () => {
    const closedBefore = slow.state.closedEarly;
    const controller = new AbortController();
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      signal: controller.signal,
      json: { model: 'slow', messages: [{ role: 'user', content: 'Go on forever' }], stream: true },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const parser = new SseParser();
    const decoder = new TextDecoder();
    let received = 0;
    while (received < 5) {
      const { value, done } = await reader.read();
      if (done) break;
      received += parser.push(decoder.decode(value, { stream: true })).length;
    }
    controller.abort();
    await vi.waitFor(() => expect(slow.state.closedEarly).toBe(closedBefore + 1), {
      timeout: 5000,
      interval: 20,
    });
    await vi.waitFor(async () => expect(await usage()).toHaveLength(1), {
      timeout: 5000,
      interval: 20,
    });
    const [row] = await usage();
    expect(Number(row!.output_tokens)).toBeGreaterThanOrEqual(5);
    expect(Number(row!.units)).toBeGreaterThan(0);
  });
});

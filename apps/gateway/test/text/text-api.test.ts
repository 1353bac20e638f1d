/**
 * The text routes against a real gateway (BASE's helper) and the in-process provider simulator
 * (demo mode: `claude-*` goes to the simulator's Anthropic API, every other model to its OpenAI
 * API), on PGlite and — when DATABASE_URL is set — PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { PushSseParser as SseParser } from '../support/sse.js';

const OPENAI_MODEL = 'gpt-4o-mini';
const ANTHROPIC_MODEL = 'claude-haiku-4-5';

async function sseEvents(res: Response) {
  const parser = new SseParser();
  const text = await res.text();
  return [...parser.push(text), ...parser.flush()];
}

async function usedUnits(gw: TestGateway, keyId: number): Promise<number> {
  // As the balance endpoint does: an idle key's lease goes back first, so `used` reads exact.
  await gw.services.billing.returnIdleLease(keyId);
  const row = await gw.services.db
    .selectFrom('api_keys')
    .select('used')
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** Settlement runs after the response; wait until `count` usage rows exist. */
async function settledRows(gw: TestGateway, keyId: number, count: number) {
  await vi.waitFor(async () => expect(await usageRows(gw, keyId)).toHaveLength(count), {
    timeout: 5000,
    interval: 10,
  });
  return usageRows(gw, keyId);
}

async function usageRows(gw: TestGateway, keyId: number) {
  return gw.services.db
    .selectFrom('usage')
    .selectAll()
    .where('key_id', '=', keyId)
    .orderBy('id')
    .execute();
}

describe.each(eachDatabase())('text API on $name', (database) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
  });
  afterAll(() => gw?.close());

  it.each([OPENAI_MODEL, ANTHROPIC_MODEL])(
    'chat completion on %s, billed to actual usage',
    async (model) => {
      const { key, id } = await gw.createKey();
      const res = await gw.fetch('/v1/chat/completions', {
        method: 'POST',
        key,
        json: {
          model,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Say hello' },
          ],
          max_tokens: 20,
          temperature: 1.5,
        },
      });
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-modelgate-overhead-ms'))).toBeGreaterThanOrEqual(0);
      const body = (await res.json()) as {
        object: string;
        choices: Array<{ message: { role: string; content: string }; finish_reason: string }>;
        usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
      };
      expect(body.object).toBe('chat.completion');
      expect(body.choices[0]!.message.role).toBe('assistant');
      expect(body.choices[0]!.message.content.length).toBeGreaterThan(0);
      expect(['stop', 'length']).toContain(body.choices[0]!.finish_reason);
      expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
      // Default demo price: 1 unit per input token, 4 per output token.
      const expected = body.usage.prompt_tokens * 1 + body.usage.completion_tokens * 4;
      const rows = await settledRows(gw, id, 1);
      expect(await usedUnits(gw, id)).toBe(expected);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        kind: 'text',
        model,
        input_tokens: body.usage.prompt_tokens,
        output_tokens: body.usage.completion_tokens,
      });
    },
  );

  it.each([OPENAI_MODEL, ANTHROPIC_MODEL])(
    'streams chat on %s: chunks, usage only when asked, [DONE]',
    async (model) => {
      const { key, id } = await gw.createKey();
      for (const includeUsage of [false, true]) {
        const res = await gw.fetch('/v1/chat/completions', {
          method: 'POST',
          key,
          json: {
            model,
            messages: [{ role: 'user', content: 'Stream please' }],
            stream: true,
            max_tokens: 12,
            ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
          },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const events = await sseEvents(res);
        expect(events.every((e) => e.event === undefined)).toBe(true);
        expect(events.at(-1)!.data).toBe('[DONE]');
        const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
        expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
        const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
        expect(text.length).toBeGreaterThan(0);
        const usageChunks = chunks.filter((c) => c.usage);
        if (includeUsage) {
          expect(usageChunks).toHaveLength(1);
          expect(chunks.at(-1).choices).toEqual([]);
        } else {
          expect(usageChunks).toHaveLength(0);
        }
      }
      const rows = await settledRows(gw, id, 2);
      expect(rows.every((r) => Number(r.output_tokens) > 0 && Number(r.units) > 0)).toBe(true);
    },
  );

  it.each([OPENAI_MODEL, ANTHROPIC_MODEL])(
    'messages on %s, plain and streamed, with x-api-key',
    async (model) => {
      const { key, id } = await gw.createKey();
      const headers = {
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      };
      const res = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model,
          max_tokens: 16,
          system: 'Be brief.',
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      });
      expect(res.status).toBe(200);
      const message = (await res.json()) as {
        type: string;
        role: string;
        content: Array<{ type: string; text: string }>;
        stop_reason: string;
        usage: { input_tokens: number; output_tokens: number };
      };
      expect(message).toMatchObject({ type: 'message', role: 'assistant' });
      expect(message.content[0]!.type).toBe('text');
      expect(['end_turn', 'max_tokens']).toContain(message.stop_reason);
      expect(message.usage.output_tokens).toBeGreaterThan(0);

      const streamed = await fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model,
          max_tokens: 16,
          messages: [{ role: 'user', content: 'Hi' }],
          stream: true,
        }),
      });
      const events = await sseEvents(streamed);
      const names = events.map((e) => e.event).filter((n) => n !== 'ping');
      expect(names[0]).toBe('message_start');
      expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
      expect(events.every((e) => JSON.parse(e.data).type === e.event)).toBe(true);
      expect(await settledRows(gw, id, 2)).toHaveLength(2);
    },
  );

  it.each([OPENAI_MODEL, ANTHROPIC_MODEL])(
    'legacy completions on %s, plain and streamed',
    async (model) => {
      const { key } = await gw.createKey();
      const res = await gw.fetch('/v1/completions', {
        method: 'POST',
        key,
        json: { model, prompt: 'Once upon a time', max_tokens: 8 },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { object: string; choices: Array<{ text: string }> };
      expect(body.object).toBe('text_completion');
      expect(body.choices[0]!.text.length).toBeGreaterThan(0);
      const streamed = await gw.fetch('/v1/completions', {
        method: 'POST',
        key,
        json: { model, prompt: 'Once', max_tokens: 8, stream: true },
      });
      const events = await sseEvents(streamed);
      expect(events.at(-1)!.data).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
      expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
      expect(chunks.map((c) => c.choices[0]?.text ?? '').join('').length).toBeGreaterThan(0);
    },
  );

  it('a key restricted to some models sees only those', async () => {
    // Stored directly (POST /v1/token refuses unknown ids): an id that names no model lists nothing.
    const { key } = await gw.createKey({ models: [ANTHROPIC_MODEL, 'my-finetune', 'veo-3-1'] });
    const res = await gw.fetch('/v1/models', { key });
    const list = (await res.json()) as { data: Array<{ id: string; type: string }> };
    const text = list.data.filter((m) => m.type === 'text').map((m) => m.id);
    expect(text).toEqual([ANTHROPIC_MODEL]);
    expect(list.data.every((m) => [ANTHROPIC_MODEL, 'my-finetune', 'veo-3-1'].includes(m.id))).toBe(
      true,
    );
  });

  it('lists text models with type "text"', async () => {
    const { key } = await gw.createKey();
    const res = await gw.fetch('/v1/models', { key });
    const list = (await res.json()) as {
      object: string;
      data: Array<{ id: string; object: string; type: string }>;
    };
    expect(list.object).toBe('list');
    const ids = list.data.filter((m) => m.type === 'text').map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([OPENAI_MODEL, ANTHROPIC_MODEL]));
    expect(list.data.every((m) => m.object === 'model')).toBe(true);
  });
});

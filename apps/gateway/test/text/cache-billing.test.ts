/**
 * The charge for a request equals the provider's own bill for its usage, in every client format,
 * native and translated, streamed or not. A stand-in upstream reports the same 20,010 input tokens
 * as plain input, as cache reads, and as 5-minute and 1-hour cache writes (Anthropic) or as cached
 * input (OpenAI); the usage row must be charged exactly what the provider's published prices make
 * of it, with the cache tokens recorded apart, and the client's usage must keep the cache fields.
 */
import type { ServerResponse } from 'node:http';
import type { UsageRecord } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/index.js';
import {
  type StandIn,
  startGatewayOnStandIns,
  startStandIn,
  usageRecordOf,
} from '../support/stand-in.js';

const INPUT = 20_010;
const OUTPUT = 10;
const REASONING = 6; // inside OUTPUT, as both APIs count it
type Mode = 'PLAIN' | 'READ' | 'WRITE5M' | 'WRITE1H';

function anthropicUsage(mode: Mode) {
  const write5m = mode === 'WRITE5M' ? INPUT : 0;
  const write1h = mode === 'WRITE1H' ? INPUT : 0;
  return {
    input_tokens: mode === 'PLAIN' ? INPUT : 0,
    cache_read_input_tokens: mode === 'READ' ? INPUT : 0,
    cache_creation_input_tokens: write5m + write1h,
    cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
    output_tokens: OUTPUT,
  };
}

function openAiUsage(mode: Mode) {
  return {
    prompt_tokens: INPUT,
    completion_tokens: OUTPUT,
    total_tokens: INPUT + OUTPUT,
    prompt_tokens_details: { cached_tokens: mode === 'READ' ? INPUT : 0 },
    completion_tokens_details: { reasoning_tokens: REASONING },
  };
}

const sse = (res: ServerResponse, frames: Array<[string | null, unknown]>) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const [event, data] of frames) {
    const line = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${line}\n\n`);
  }
  res.end();
};

function anthropicAnswer(res: ServerResponse, mode: Mode, stream: boolean) {
  const usage = anthropicUsage(mode);
  const message = {
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    return;
  }
  const { output_tokens: _final, ...input } = usage;
  sse(res, [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { ...input, output_tokens: 1 },
        },
      },
    ],
    [
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    // As the API sends it now: the final figures, input and cache included.
    [
      'message_delta',
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function openAiAnswer(res: ServerResponse, mode: Mode, stream: boolean, legacy: boolean) {
  const usage = openAiUsage(mode);
  const choice = legacy
    ? { index: 0, text: 'ok', logprobs: null, finish_reason: 'stop' }
    : { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' };
  const head = { id: 'chatcmpl-standin', created: 1, model: 'gpt-4o-mini' };
  if (!stream) {
    const object = legacy ? 'text_completion' : 'chat.completion';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...head, object, choices: [choice], usage }));
    return;
  }
  const object = legacy ? 'text_completion' : 'chat.completion.chunk';
  const piece = legacy
    ? { index: 0, text: 'ok', logprobs: null, finish_reason: null }
    : { index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null };
  const end = legacy
    ? { index: 0, text: '', logprobs: null, finish_reason: 'stop' }
    : { index: 0, delta: {}, finish_reason: 'stop' };
  sse(res, [
    [null, { ...head, object, choices: [piece] }],
    [null, { ...head, object, choices: [end] }],
    [null, { ...head, object, choices: [], usage }],
    [null, '[DONE]'],
  ]);
}

/** OpenAI's own Responses API (gpt models pass through to it): the same usage, Responses-shaped. */
function responsesAnswer(res: ServerResponse, mode: Mode, stream: boolean) {
  const usage = {
    input_tokens: INPUT,
    input_tokens_details: { cached_tokens: mode === 'READ' ? INPUT : 0 },
    output_tokens: OUTPUT,
    output_tokens_details: { reasoning_tokens: REASONING },
    total_tokens: INPUT + OUTPUT,
  };
  const text = { type: 'output_text', text: 'ok', annotations: [] };
  const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed' };
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: 'resp_standin',
    object: 'response',
    created_at: 1,
    model: 'gpt-4o-mini',
    status,
    output,
    usage,
  });
  const done = response('completed', [{ ...message, content: [text] }], usage);
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(done));
    return;
  }
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: response('in_progress', [], null) },
    {
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'ok',
    },
    { type: 'response.completed', response: done },
  ];
  sse(
    res,
    events.map((event, i) => [event.type as string, { ...event, sequence_number: i }]),
  );
}

/** The stand-in upstream: each format's answer, with the usage of the mode the prompt names. */
function startCacheStandIn(): Promise<StandIn> {
  return startStandIn((req, raw, res) => {
    const mode = (/MODE_(PLAIN|READ|WRITE5M|WRITE1H)/.exec(raw)?.[1] ?? 'PLAIN') as Mode;
    const stream = (JSON.parse(raw) as { stream?: boolean }).stream === true;
    if (req.url?.endsWith('/messages')) anthropicAnswer(res, mode, stream);
    else if (req.url?.endsWith('/responses') && raw.includes('NOT_A_RESPONSE'))
      openAiAnswer(res, mode, false, false);
    else if (req.url?.endsWith('/responses')) responsesAnswer(res, mode, stream);
    else
      openAiAnswer(
        res,
        mode,
        stream,
        req.url?.endsWith('/completions') === true && !req.url.endsWith('/chat/completions'),
      );
  });
}

/** Each format's request body for a prompt naming the mode. */
const FORMATS = {
  chat: [
    '/v1/chat/completions',
    (model: string, text: string) => ({
      model,
      max_tokens: 20,
      messages: [{ role: 'user', content: text }],
    }),
  ],
  completion: [
    '/v1/completions',
    (model: string, text: string) => ({ model, max_tokens: 20, prompt: text }),
  ],
  messages: [
    '/v1/messages',
    (model: string, text: string) => ({
      model,
      max_tokens: 20,
      messages: [{ role: 'user', content: text }],
    }),
  ],
  responses: ['/v1/responses', (model: string, text: string) => ({ model, input: text })],
} as const;
type Format = keyof typeof FORMATS;

/*
 * Hand-computed at the published prices (credits per million tokens = units per token):
 * Claude Sonnet 4.5: input 3, output 15, cache read 0.3, 5-minute write 3.75, 1-hour write 6.
 * gpt-4o-mini: input 0.15, output 0.6, cached input 0.075. Output 10 tokens (reasoning inside).
 */
const CLAUDE_UNITS: Record<Mode, number> = {
  PLAIN: 60_180, // 20,010 × 3 + 10 × 15
  READ: 6_153, // 20,010 × 0.3 + 150
  WRITE5M: 75_188, // 20,010 × 3.75 + 150 = 75,187.5, rounded up
  WRITE1H: 120_210, // 20,010 × 6 + 150
};
const MINI_UNITS: Record<'PLAIN' | 'READ', number> = {
  PLAIN: 3_008, // 20,010 × 0.15 + 10 × 0.6 = 3,007.5, rounded up
  READ: 1_507, // 20,010 × 0.075 + 6 = 1,506.75, rounded up
};

describe('cache-aware billing against a stand-in upstream', () => {
  let gw: TestGateway;
  let key: string;
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startCacheStandIn();
    ({ gw, key } = await startGatewayOnStandIns({
      providers: {
        up_openai: { kind: 'openai', base_url: `${standIn.url}/v1`, api_key: 'sk-standin' },
        up_anthropic: { kind: 'anthropic', base_url: standIn.url, api_key: 'sk-standin' },
      },
      models: [
        {
          id: 'claude-sonnet-4-5',
          deployments: [{ provider: 'up_anthropic', model: 'claude-sonnet-4-5' }],
          price: { input_per_million: 3, output_per_million: 15 },
        },
        {
          id: 'gpt-4o-mini',
          deployments: [{ provider: 'up_openai', model: 'gpt-4o-mini' }],
          price: { input_per_million: 0.15, output_per_million: 0.6 },
        },
      ],
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await standIn?.close();
  });

  const charged = (requestId: string) => usageRecordOf(gw, requestId);

  async function send(format: Format, model: string, mode: Mode, stream: boolean) {
    const [path, body] = FORMATS[format];
    const res = await gw.fetch(path, {
      method: 'POST',
      key,
      json: { ...body(model, `MODE_${mode}`), stream },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    return {
      record: await charged(res.headers.get('x-request-id')!),
      body: stream ? null : JSON.parse(text),
    };
  }

  it('an upstream answer that is not a response is a 502, and nothing is charged', async () => {
    const res = await gw.fetch('/v1/responses', {
      method: 'POST',
      key,
      json: { model: 'gpt-4o-mini', input: 'NOT_A_RESPONSE' },
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /not a response/,
    );
    const page = await gw.fetch(`/v1/usage/records?request_id=${res.headers.get('x-request-id')}`, {
      key: gw.adminKey,
    });
    const records = ((await page.json()) as { data: UsageRecord[] }).data;
    expect(records.reduce((sum, r) => sum + r.units, 0)).toBe(0);
  });

  const formats = Object.keys(FORMATS) as Format[];
  describe.each([false, true])('stream: %s', (stream) => {
    it.each(
      formats.flatMap((f) =>
        (['PLAIN', 'READ', 'WRITE5M', 'WRITE1H'] as const).map((m) => [f, m] as const),
      ),
    )(
      'claude-sonnet-4-5 through %s, usage as %s: charged as Anthropic bills it',
      async (format, mode) => {
        const { record } = await send(format, 'claude-sonnet-4-5', mode, stream);
        expect(record.units).toBe(CLAUDE_UNITS[mode]);
        const usage = anthropicUsage(mode);
        expect(record).toMatchObject({
          input_tokens: usage.input_tokens,
          cache_read_tokens: usage.cache_read_input_tokens,
          cache_write_5m_tokens: usage.cache_creation.ephemeral_5m_input_tokens,
          cache_write_1h_tokens: usage.cache_creation.ephemeral_1h_input_tokens,
          output_tokens: OUTPUT,
        });
      },
    );

    it.each(formats.flatMap((f) => (['PLAIN', 'READ'] as const).map((m) => [f, m] as const)))(
      'gpt-4o-mini through %s, usage as %s: charged as OpenAI bills it (reasoning as output)',
      async (format, mode) => {
        const { record } = await send(format, 'gpt-4o-mini', mode, stream);
        expect(record.units).toBe(MINI_UNITS[mode]);
        expect(record).toMatchObject({
          input_tokens: mode === 'READ' ? 0 : INPUT,
          cache_read_tokens: mode === 'READ' ? INPUT : 0,
          cache_write_5m_tokens: 0,
          cache_write_1h_tokens: 0,
          output_tokens: OUTPUT,
        });
      },
    );
  });

  it('the three ways of reporting the same 20,010 tokens are charged differently', () => {
    expect(new Set(Object.values(CLAUDE_UNITS)).size).toBe(4);
  });

  it('translated answers keep the cache fields the client format has', async () => {
    const chat = (await send('chat', 'claude-sonnet-4-5', 'READ', false)).body;
    expect(chat.usage).toMatchObject({
      prompt_tokens: INPUT,
      prompt_tokens_details: { cached_tokens: INPUT },
    });
    const written = (await send('chat', 'claude-sonnet-4-5', 'WRITE1H', false)).body;
    expect(written.usage).toMatchObject({
      prompt_tokens: INPUT,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    const responses = (await send('responses', 'claude-sonnet-4-5', 'READ', false)).body;
    expect(responses.usage).toMatchObject({
      input_tokens: INPUT,
      input_tokens_details: { cached_tokens: INPUT },
    });
    const message = (await send('messages', 'gpt-4o-mini', 'READ', false)).body;
    expect(message.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: INPUT,
      output_tokens: OUTPUT,
    });
    const reasoning = (await send('responses', 'gpt-4o-mini', 'PLAIN', false)).body;
    expect(reasoning.usage).toMatchObject({
      output_tokens: OUTPUT,
      output_tokens_details: { reasoning_tokens: REASONING },
    });
  });

  it('GET /v1/models shows every price of a model, cache prices included', async () => {
    const res = await gw.fetch('/v1/models', { key });
    const { data } = (await res.json()) as {
      data: Array<{ id: string; text?: { price: unknown } }>;
    };
    expect(data.find((m) => m.id === 'claude-sonnet-4-5')?.text?.price).toEqual({
      input_per_million: 3,
      output_per_million: 15,
      cached_input_per_million: 0.3,
      cache_write_5m_per_million: 3.75,
      cache_write_1h_per_million: 6,
    });
    expect(data.find((m) => m.id === 'gpt-4o-mini')?.text?.price).toEqual({
      input_per_million: 0.15,
      output_per_million: 0.6,
      cached_input_per_million: 0.075,
      cache_write_5m_per_million: 0.15,
      cache_write_1h_per_million: 0.15,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { AnthropicToOpenAiStream } from '../../src/translate/anthropic-to-openai-stream.js';
import { OpenAiToAnthropicStream } from '../../src/translate/openai-to-anthropic-stream.js';
import {
  AnthropicPassthroughStream,
  OpenAiPassthroughStream,
} from '../../src/translate/passthrough.js';
import {
  anthropicToChatRequest,
  chatToAnthropicRequest,
  completionToChatRequest,
} from '../../src/translate/request.js';
import {
  anthropicMessageFromChat,
  chatCompletionFromAnthropic,
  textCompletionFromAnthropic,
} from '../../src/translate/response.js';
import { NO_USAGE } from '../../src/translate/stream-base.js';
import type {
  AnthropicMessage,
  AnthropicStreamEvent,
  OpenAiChatChunk,
} from '../../src/translate/wire.js';
import { PushSseParser as SseParser } from '../support/sse.js';

const target = { upstreamModel: 'claude-up', defaultMaxTokens: 321 };

/** Parses the SSE strings a transform emitted back into events. */
function parseOut(out: string[]) {
  const parser = new SseParser();
  return out
    .flatMap((s) => parser.push(s))
    .map((e) => ({
      event: e.event,
      data: e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data),
    }));
}

describe('chat → anthropic request', () => {
  it('moves system and developer messages to system, merges same-role turns, maps params', () => {
    const out = chatToAnthropicRequest(
      {
        model: 'm',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: [{ type: 'text', text: 'No emojis.' }] },
          { role: 'user', content: 'Hi' },
          { role: 'user', content: [{ type: 'text', text: 'there' }] },
          { role: 'assistant', content: 'Hello' },
        ],
        temperature: 1.7,
        top_p: 0.5,
        stop: 'END',
        stream: true,
        user: 'u1',
        frequency_penalty: 1,
      },
      target,
    );
    expect(out).toEqual({
      model: 'claude-up',
      max_tokens: 321,
      system: 'Be brief.\n\nNo emojis.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: 'there' },
          ],
        },
        { role: 'assistant', content: 'Hello' },
      ],
      temperature: 1,
      top_p: 0.5,
      stop_sequences: ['END'],
      stream: true,
      metadata: { user_id: 'u1' },
    });
  });

  it('keeps an explicit max_tokens and a temperature already within 0–1', () => {
    const out = chatToAnthropicRequest(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 7,
        temperature: 0.3,
        stop: ['a', 'b'],
      },
      target,
    );
    expect(out.max_tokens).toBe(7);
    expect(out.temperature).toBe(0.3);
    expect(out.stop_sequences).toEqual(['a', 'b']);
    expect(out.system).toBeUndefined();
  });
});

describe('anthropic → chat request', () => {
  it('turns system into a system message and stop_sequences into stop, asks streams for usage', () => {
    const out = anthropicToChatRequest(
      {
        model: 'x',
        max_tokens: 50,
        system: [{ type: 'text', text: 'Sys' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'c' }] },
        ],
        stop_sequences: ['1', '2', '3', '4', '5'],
        temperature: 0.2,
        top_k: 5,
        stream: true,
      },
      'gpt-up',
    );
    expect(out).toEqual({
      model: 'gpt-up',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        { role: 'assistant', content: 'c' },
      ],
      temperature: 0.2,
      stop: ['1', '2', '3', '4'],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps a legacy prompt onto one user message with the legacy default max_tokens', () => {
    const out = completionToChatRequest({ model: 'x', prompt: 'Say hi', temperature: 0 });
    expect(out.messages).toEqual([{ role: 'user', content: 'Say hi' }]);
    expect(out.max_tokens).toBe(16);
    expect(out.temperature).toBe(0);
  });
});

const message: AnthropicMessage = {
  id: 'msg_abc',
  type: 'message',
  role: 'assistant',
  model: 'claude-up',
  content: [
    { type: 'text', text: 'Hel' },
    { type: 'text', text: 'lo' },
  ],
  stop_reason: 'max_tokens',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 2 },
};

describe('response translation', () => {
  it('anthropic message → chat completion', () => {
    const out = chatCompletionFromAnthropic(message);
    expect(out.id).toBe('chatcmpl-abc');
    expect(out.object).toBe('chat.completion');
    expect(out.choices[0]).toMatchObject({
      index: 0,
      message: { role: 'assistant', content: 'Hello' },
      finish_reason: 'length',
    });
    // As OpenAI counts: the cache reads are inside prompt_tokens and also in cached_tokens.
    expect(out.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 3,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 2 },
    });
  });

  it('anthropic message → text completion', () => {
    const out = textCompletionFromAnthropic({ ...message, stop_reason: 'stop_sequence' });
    expect(out.object).toBe('text_completion');
    expect(out.choices[0]).toMatchObject({ text: 'Hello', finish_reason: 'stop' });
  });

  it('chat completion → anthropic message', () => {
    const out = anthropicMessageFromChat({
      id: 'chatcmpl-9',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-up',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Yo' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 },
    });
    expect(out).toMatchObject({
      id: 'msg_9',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Yo' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 4, output_tokens: 1 },
    });
  });
});

const anthropicEvents: AnthropicStreamEvent[] = [
  {
    type: 'message_start',
    message: {
      ...message,
      content: [],
      stop_reason: null,
      usage: { input_tokens: 9, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 2 },
  },
  { type: 'message_stop' },
];

describe('anthropic events → chat chunks', () => {
  it('emits role chunk, content chunks, finish chunk, usage chunk (when asked) and [DONE]', () => {
    const t = new AnthropicToOpenAiStream({ includeUsage: true, format: 'chat' });
    const out = parseOut(anthropicEvents.flatMap((e) => t.push(e)));
    const datas = out.map((o) => o.data);
    expect(datas[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(datas.slice(1, 3).map((d) => d.choices[0].delta.content)).toEqual(['Hel', 'lo']);
    expect(datas[3].choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(datas[4]).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    });
    expect(datas[5]).toBe('[DONE]');
    expect(out.every((o) => o.event === undefined)).toBe(true);
    expect(new Set(datas.slice(0, 5).map((d) => d.id))).toEqual(new Set(['chatcmpl-abc']));
    expect(t.completed).toBe(true);
    expect(t.usage).toEqual({ ...NO_USAGE, inputTokens: 9, outputTokens: 2 });
  });

  it('omits the usage chunk when not asked and emits legacy chunks for completions', () => {
    const t = new AnthropicToOpenAiStream({ includeUsage: false, format: 'completion' });
    const datas = parseOut(anthropicEvents.flatMap((e) => t.push(e))).map((o) => o.data);
    expect(datas.map((d) => (d === '[DONE]' ? d : d.choices[0].text))).toEqual([
      'Hel',
      'lo',
      '',
      '[DONE]',
    ]);
    expect(datas[2].choices[0].finish_reason).toBe('stop');
    expect(datas[0].object).toBe('text_completion');
  });

  it('ends a cut-short stream with an error and keeps the produced text', () => {
    const t = new AnthropicToOpenAiStream({ includeUsage: false, format: 'chat' });
    for (const e of anthropicEvents.slice(0, 4)) t.push(e);
    const out = parseOut(t.end());
    expect(out[0]?.data.error.type).toBe('upstream_error');
    expect(t.completed).toBe(false);
    expect(t.producedText).toBe('Hel');
  });
});

function chunk(
  delta: OpenAiChatChunk['choices'][0]['delta'],
  finish: string | null = null,
): OpenAiChatChunk {
  return {
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-up',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

describe('chat chunks → anthropic events', () => {
  it('produces exactly the vendor event sequence with real usage at the end', () => {
    const t = new OpenAiToAnthropicStream({ estimatedInputTokens: 5 });
    const out = parseOut([
      ...t.push(chunk({ role: 'assistant', content: '' })),
      ...t.push(chunk({ content: 'Hi' })),
      ...t.push(chunk({ content: ' you' })),
      ...t.push(chunk({}, 'length')),
      ...t.push({
        ...chunk({}),
        choices: [],
        usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
      }),
      ...t.push('done'),
    ]);
    expect(out.map((o) => o.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(out.every((o) => o.data.type === o.event)).toBe(true);
    expect(out[0]!.data.message).toMatchObject({
      id: 'msg_7',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 5 },
    });
    expect(out[3]!.data.delta).toEqual({ type: 'text_delta', text: 'Hi' });
    expect(out[6]!.data).toMatchObject({
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { input_tokens: 8, output_tokens: 2 },
    });
    expect(t.producedText).toBe('Hi you');
    expect(t.completed).toBe(true);
  });

  it('turns an upstream error chunk into an error event', () => {
    const t = new OpenAiToAnthropicStream({ estimatedInputTokens: 5 });
    t.push(chunk({ content: 'x' }));
    const out = parseOut(t.push({ error: { message: 'boom', type: 'server_error' } }));
    expect(out[0]).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'upstream_error', message: 'boom' } },
    });
  });
});

describe('passthrough meters', () => {
  const sse = [
    `data: ${JSON.stringify({ ...chunk({ role: 'assistant', content: 'A' }), usage: null })}\n\n`,
    `data: ${JSON.stringify({ ...chunk({ content: 'B' }, 'stop'), usage: null })}\n\n`,
    `data: ${JSON.stringify({ ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');

  it('forwards bytes, reads usage, strips the usage chunk when the client did not ask', () => {
    const t = new OpenAiPassthroughStream({ includeUsage: false, format: 'chat' });
    const parser = new SseParser();
    // Feed in awkward slices to exercise the parser's buffering.
    const out: string[] = [];
    for (let i = 0; i < sse.length; i += 7)
      for (const ev of parser.push(sse.slice(i, i + 7))) out.push(...t.push(ev));
    expect(out).toHaveLength(3);
    expect(out[2]).toBe('data: [DONE]\n\n');
    expect(t.usage).toEqual({ ...NO_USAGE, inputTokens: 3, outputTokens: 2 });
    expect(t.producedText).toBe('AB');
    expect(t.completed).toBe(true);
  });

  it('keeps the usage chunk when asked', () => {
    const t = new OpenAiPassthroughStream({ includeUsage: true, format: 'chat' });
    const out = new SseParser().push(sse).flatMap((ev) => t.push(ev));
    expect(out.join('')).toBe(sse);
  });

  it('a long stream cut short counts all it produced (content folded into text as it goes)', () => {
    const t = new OpenAiPassthroughStream({ includeUsage: false, format: 'chat' });
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `);
    const raw = words
      .map((w) => `data: ${JSON.stringify({ ...chunk({ content: w }), usage: null })}\n\n`)
      .join('');
    const out = new SseParser().push(raw).flatMap((ev) => t.push(ev));
    expect(out.join('')).toBe(raw);
    // No [DONE]: the stream was cut short, so the text is what gets billed.
    expect(t.completed).toBe(false);
    expect(t.producedText).toBe(words.join(''));
    expect(t.producedText).toBe(words.join(''));
  });

  it('anthropic passthrough reads usage and text', () => {
    const t = new AnthropicPassthroughStream();
    const raw = anthropicEvents
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    const out = new SseParser().push(raw).flatMap((ev) => t.push(ev));
    expect(out.join('')).toBe(raw);
    expect(t.usage).toEqual({ ...NO_USAGE, inputTokens: 9, outputTokens: 2 });
    expect(t.producedText).toBe('Hello');
    expect(t.completed).toBe(true);
  });
});

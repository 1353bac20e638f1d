/**
 * Produced text on the pass-through streams: it must equal the text of every chunk, whatever the
 * chunk holds (escapes, unicode, tool calls, logprobs, null content, the usage chunk), and every
 * byte is forwarded.
 */
import { describe, expect, it } from 'vitest';
import {
  AnthropicPassthroughStream,
  OpenAiPassthroughStream,
} from '../../src/translate/passthrough.js';
import { NO_USAGE } from '../../src/translate/stream-base.js';
import { PushSseParser as SseParser } from '../support/sse.js';

const sse = (payloads: unknown[], event?: (p: unknown) => string) =>
  payloads
    .map((p) => `${event ? `event: ${event(p)}\n` : ''}data: ${JSON.stringify(p)}\n\n`)
    .join('');

const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const chatChunks = [
  { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
  { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, logprobs: null }] },
  { ...base, choices: [{ index: 0, delta: { content: ' "quoted" \\ back\nslash' } }] },
  { ...base, choices: [{ index: 0, delta: { content: 'é 😀 \u2028' } }] },
  { ...base, choices: [{ index: 0, delta: { content: 'text with "content": inside' } }] },
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: { content: 'lp' },
        logprobs: { content: [{ token: 'lp', logprob: -0.1 }] },
      },
    ],
  },
  { ...base, choices: [{ index: 0, delta: { content: null } }] },
  {
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: 't', function: { name: 'get_weather', arguments: '' } }],
        },
      },
    ],
  },
  {
    ...base,
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] } },
    ],
  },
  { ...base, choices: [{ index: 1, delta: { content: 'second choice' } }] },
  { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  { ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 } },
];

/** What a full parse of every chunk gives: the reference the quick path must match. */
function parsedText(chunks: typeof chatChunks, format: 'chat' | 'completion'): string {
  let text = '';
  for (const chunk of chunks as Array<{
    choices: Array<{
      text?: string;
      delta?: {
        content?: string | null;
        tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
      };
    }>;
  }>) {
    const choice = chunk.choices[0];
    text += (format === 'completion' ? choice?.text : choice?.delta?.content) ?? '';
    for (const call of choice?.delta?.tool_calls ?? []) {
      text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
    }
  }
  return text;
}

describe('pass-through produced text', () => {
  it('chat: equals a full parse of every chunk, and forwards every byte', () => {
    const raw = `${sse(chatChunks)}data: [DONE]\n\n`;
    const t = new OpenAiPassthroughStream({ includeUsage: true, format: 'chat' });
    const out = new SseParser().push(raw).flatMap((ev) => t.push(ev));
    expect(out.join('')).toBe(raw);
    expect(t.producedText).toBe(parsedText(chatChunks, 'chat'));
    expect(t.producedText).toContain('get_weather{"a":');
    expect(t.usage).toEqual({ ...NO_USAGE, inputTokens: 3, outputTokens: 9 });
  });

  it('legacy completions: reads "text", not "content"', () => {
    const chunks = [
      { id: 'x', object: 'text_completion', choices: [{ index: 0, text: 'Once "upon"' }] },
      { id: 'x', object: 'text_completion', choices: [{ index: 0, text: ' a time' }] },
      {
        id: 'x',
        object: 'text_completion',
        choices: [{ index: 0, text: '', finish_reason: 'length', logprobs: null }],
      },
    ];
    const t = new OpenAiPassthroughStream({ includeUsage: false, format: 'completion' });
    new SseParser().push(sse(chunks)).flatMap((ev) => t.push(ev));
    expect(t.producedText).toBe('Once "upon" a time');
  });

  it('messages: text and tool-input deltas count, thinking and other events do not', () => {
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi "there"' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"city":' },
      },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } },
      { type: 'message_stop' },
    ];
    const t = new AnthropicPassthroughStream();
    const raw = sse(events, (p) => (p as { type: string }).type);
    const out = new SseParser().push(raw).flatMap((ev) => t.push(ev));
    expect(out.join('')).toBe(raw);
    expect(t.producedText).toBe('Hi "there"{"city":');
    expect(t.usage).toEqual({ ...NO_USAGE, inputTokens: 5, outputTokens: 7 });
  });
});

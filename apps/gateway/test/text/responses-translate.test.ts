/**
 * The responses ⇄ chat translator on its own: tools (function, custom, namespaced, hosted),
 * input items, and the stream translation's ending (completed once, or one response.failed).
 */
import type { CreateResponseRequest } from '@modelgate/core';
import { describe, expect, it } from 'vitest';
import { toChat } from '../../src/translate/responses/request.js';
import { responseShell, toolNaming } from '../../src/translate/responses/response.js';
import { ResponsesStreamSink } from '../../src/translate/responses/stream.js';
import type { StreamSink } from '../../src/translate/stream-sink.js';

function memorySink(): StreamSink & { text: string; ended: boolean } {
  return {
    text: '',
    ended: false,
    write(t) {
      this.text += t;
      return true;
    },
    onDrain: () => {},
    onClientGone: () => {},
    end() {
      this.ended = true;
    },
    destroy: () => {},
  };
}

const events = (text: string) =>
  text
    .split('\n\n')
    .filter((f) => f.startsWith('event:'))
    .map(
      (f) =>
        JSON.parse(f.split('\n')[1]!.slice(6)) as {
          type: string;
          sequence_number: number;
          [k: string]: unknown;
        },
    );

describe('responses → chat', () => {
  it('maps instructions, items, tool calls and their outputs', () => {
    const { body } = toChat(
      {
        model: 'm',
        instructions: 'Be brief.',
        input: [
          { role: 'developer', content: 'Use tools.' },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Hi' },
              { type: 'input_image', image_url: 'https://x/y.png' },
            ],
          },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'done' },
        ],
      },
      [],
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use tools.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'image_url', image_url: { url: 'https://x/y.png' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ]);
  });

  it('flattens namespaced and custom tools, and refuses a hosted one by name', () => {
    const request: CreateResponseRequest = {
      model: 'm',
      input: 'x',
      tools: [
        { type: 'custom', name: 'apply_patch' },
        {
          type: 'namespace',
          name: 'crm',
          description: 'd',
          tools: [{ type: 'function', name: 'find', parameters: { type: 'object' } }],
        },
      ],
    };
    const names = toChat(request, []).body.tools!.map((t) => t.function.name);
    expect(names).toEqual(['apply_patch', 'crm__find']);
    expect(() =>
      toChat({ model: 'm', input: 'x', tools: [{ type: 'code_interpreter' }] }, []),
    ).toThrow(/code_interpreter/);
  });
});

describe('chat stream → responses events', () => {
  const body: CreateResponseRequest = {
    model: 'm',
    input: 'x',
    tools: [
      {
        type: 'namespace',
        name: 'crm',
        description: 'd',
        tools: [{ type: 'function', name: 'find' }],
      },
    ],
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('numbers every event and names a namespaced call back, kept before completed', async () => {
    const sink = memorySink();
    const kept: string[] = [];
    const translated = new ResponsesStreamSink(
      sink,
      responseShell('resp_1', body, 1),
      toolNaming(body),
      async (r) => {
        kept.push(r.id);
      },
    );
    translated.write(chunk({ content: 'Hel' }));
    translated.write(chunk({ content: 'lo' }));
    translated.write(
      chunk({
        tool_calls: [
          { index: 0, id: 'c1', type: 'function', function: { name: 'crm__find', arguments: '' } },
        ],
      }),
    );
    translated.write(
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] }, 'tool_calls'),
    );
    translated.write('data: [DONE]\n\n');
    translated.end();
    await new Promise((r) => setImmediate(r));
    const all = events(sink.text);
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = all[12]!.item as { name: string; namespace: string; arguments: string };
    expect(done).toMatchObject({ name: 'find', namespace: 'crm', arguments: '{"q":1}' });
    expect(kept).toEqual(['resp_1']);
    expect(sink.ended).toBe(true);
  });

  it('ends a failed stream with exactly one response.failed', () => {
    const sink = memorySink();
    const translated = new ResponsesStreamSink(
      sink,
      responseShell('resp_2', body, 1),
      toolNaming(body),
      async () => {},
    );
    translated.write(chunk({ content: 'Hi' }));
    translated.write(
      `data: ${JSON.stringify({ error: { message: 'boom', type: 'server_error' } })}\n\n`,
    );
    translated.end();
    const types = events(sink.text).map((e) => e.type);
    expect(types.filter((t) => t === 'response.failed')).toHaveLength(1);
    expect(types.at(-1)).toBe('response.failed');
    expect(types).not.toContain('response.completed');
  });
});

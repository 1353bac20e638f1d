/**
 * The pieces of translation that compatibility added, on their own: which fields a direction drops,
 * images between the two formats, and response_format as a forced tool or a system instruction.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_TO_MESSAGES, droppedFields, MESSAGES_TO_CHAT } from '../../src/translate/dropped.js';
import { imageSourceOfUrl, urlOfImageSource } from '../../src/translate/images.js';
import { anthropicToChatRequest, chatToAnthropicRequest } from '../../src/translate/request.js';
import { AnswerToolStream, answerToolAsText } from '../../src/translate/response-format.js';

const target = { upstreamModel: 'claude-up', defaultMaxTokens: 100 };

describe('dropped fields', () => {
  it('lists set fields a direction does not carry, null ones not, tool fields once', () => {
    const body = {
      model: 'm',
      messages: [],
      seed: null,
      logprobs: true,
      tools: [
        { type: 'function', function: { name: 'a', strict: true } },
        { type: 'function', function: { name: 'b', strict: false }, x: 1 },
      ],
    };
    expect(droppedFields(body, CHAT_TO_MESSAGES)).toEqual([
      'logprobs',
      'tools.*.function.strict',
      'tools.*.x',
    ]);
    expect(
      droppedFields(
        {
          model: 'm',
          messages: [],
          max_tokens: 5,
          top_k: 3,
          tools: [{ name: 'a', input_schema: {}, cache_control: {} }],
        },
        MESSAGES_TO_CHAT,
      ),
    ).toEqual(['top_k', 'tools.*.cache_control']);
  });
});

describe('images', () => {
  it('a data URL is a base64 source and back; any other URL stays a URL', () => {
    const source = imageSourceOfUrl('data:image/png;base64,iVBO');
    expect(source).toEqual({ type: 'base64', media_type: 'image/png', data: 'iVBO' });
    expect(urlOfImageSource(source)).toBe('data:image/png;base64,iVBO');
    expect(imageSourceOfUrl('https://x.test/a.png')).toEqual({
      type: 'url',
      url: 'https://x.test/a.png',
    });
  });

  it('round-trips a user turn with text and an image through both formats', () => {
    const chat = {
      model: 'm',
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'What?' },
            {
              type: 'image_url' as const,
              image_url: { url: 'data:image/gif;base64,R0lG', detail: 'low' as const },
            },
          ],
        },
      ],
    };
    const messages = chatToAnthropicRequest(chat, target);
    expect(messages.messages[0]!.content).toEqual([
      { type: 'text', text: 'What?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lG' } },
    ]);
    const back = anthropicToChatRequest(messages, 'gpt-up');
    expect(back.messages[0]!.content).toEqual([
      { type: 'text', text: 'What?' },
      { type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lG' } },
    ]);
  });
});

describe('response_format for a messages-format upstream', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  const base = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };

  it('json_schema without tools: a forced tool named after the schema', () => {
    const out = chatToAnthropicRequest(
      { ...base, response_format: { type: 'json_schema', json_schema: { name: 'thing', schema } } },
      target,
    );
    expect(out.tools).toEqual([expect.objectContaining({ name: 'thing', input_schema: schema })]);
    expect(out.tool_choice).toEqual({ type: 'tool', name: 'thing' });
    expect(out.system).toBeUndefined();
  });

  it('with tools of its own, or a non-object schema: an instruction in the system prompt', () => {
    const withTools = chatToAnthropicRequest(
      {
        ...base,
        tools: [{ type: 'function', function: { name: 'f' } }],
        response_format: { type: 'json_schema', json_schema: { name: 'thing', schema } },
      },
      target,
    );
    expect(withTools.tools?.map((t) => t.name)).toEqual(['f']);
    expect(withTools.system).toContain(`JSON Schema: ${JSON.stringify(schema)}`);
    const list = chatToAnthropicRequest(
      {
        ...base,
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'l', schema: { type: 'array' } },
        },
      },
      target,
    );
    expect(list.tools).toBeUndefined();
    expect(list.system).toContain('JSON');
  });

  it('the answer tool comes back as text, whole and streamed', () => {
    const message = answerToolAsText(
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'c',
        content: [{ type: 'tool_use', id: 't', name: 'thing', input: { a: 'x' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      'thing',
    );
    expect(message.content).toEqual([{ type: 'text', text: '{"a":"x"}' }]);
    expect(message.stop_reason).toBe('end_turn');
    const rewrite = new AnswerToolStream('thing');
    expect(
      rewrite.event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'thing' },
      }),
    ).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(
      rewrite.event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"a"' },
      }),
    ).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: '{"a"' },
    });
  });
});

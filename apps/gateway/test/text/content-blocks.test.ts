/**
 * The pieces behind vendor content: which blocks are of a listed kind, the readable text of a
 * block of any kind, the dropped list for a chat translation, a responses pivot that lists the
 * items it cannot map instead of refusing them, system turns folded into `system`, and a
 * validated body put back in the client's key order.
 */
import { zCreateMessageRequest } from '@modelgate/core/zod';
import { describe, expect, it } from 'vitest';
import { inClientOrder } from '../../src/http/client-order.js';
import {
  droppedBlocks,
  isKnownBlock,
  readableText,
  resultPart,
} from '../../src/translate/content-blocks.js';
import { toChat } from '../../src/translate/responses/request.js';
import {
  type Conversation,
  foldSystemTurns,
  hasSystemTurns,
} from '../../src/translate/system-turns.js';

describe('readableText', () => {
  it.each([
    ['a text field', { type: 'compaction_note', text: 'T' }, 'T'],
    ['a content string', { type: 'compaction', content: 'Summary.' }, 'Summary.'],
    [
      'content blocks (search_result)',
      {
        type: 'search_result',
        source: 's',
        title: 't',
        content: [
          { type: 'text', text: 'One.' },
          { type: 'text', text: 'Two.' },
        ],
      },
      'One.\nTwo.',
    ],
    [
      'a text document',
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Doc.' } },
      'Doc.',
    ],
    [
      'a content document',
      { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'C.' }] } },
      'C.',
    ],
  ])('reads %s', (_name, block, text) => {
    expect(readableText(block)).toBe(text);
  });

  it.each([
    ['a PDF', { type: 'document', source: { type: 'base64', media_type: 'application/pdf' } }],
    ['a server tool call', { type: 'server_tool_use', id: 'x', name: 'web_search', input: {} }],
    [
      'search results without text',
      { type: 'web_search_tool_result', content: [{ type: 'web_search_result', url: 'u' }] },
    ],
    ['an object content', { type: 'code_execution_tool_result', content: { stdout: 'x' } }],
    ['a non-string text', { type: 'odd', text: 7 }],
  ])('finds none in %s', (_name, block) => {
    expect(readableText(block)).toBeNull();
  });
});

describe('isKnownBlock and resultPart', () => {
  it('tells listed kinds from vendor ones', () => {
    expect(isKnownBlock({ type: 'text', text: 'x' })).toBe(true);
    expect(isKnownBlock({ type: 'redacted_thinking', data: 'x' })).toBe(true);
    expect(isKnownBlock({ type: 'document' })).toBe(false);
  });

  it('takes an image the spec describes, text where there is some, and drops the rest', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } };
    expect(resultPart(image)).toEqual({ kind: 'image', block: image });
    expect(resultPart({ type: 'image', source: { type: 'file', file_id: 'f' } })).toEqual({
      kind: 'dropped',
    });
    const file = { type: 'image', source: { type: 'file', file_id: 'file_1' } };
    expect(resultPart(file)).toEqual({ kind: 'dropped' });
    expect(resultPart({ type: 'text', text: 'a' })).toEqual({ kind: 'text', text: 'a' });
    expect(resultPart({ type: 'tool_reference', tool_name: 'Read' })).toEqual({ kind: 'dropped' });
  });
});

describe('droppedBlocks', () => {
  it('names each kind once per place, and nothing for text, thinking or readable blocks', () => {
    const body = zCreateMessageRequest.parse({
      model: 'm',
      max_tokens: 8,
      messages: [
        { role: 'user', content: 'plain' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 't', signature: 's' },
            { type: 'server_tool_use', id: 'a', name: 'web_search', input: {} },
            { type: 'server_tool_use', id: 'b', name: 'web_search', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'search_result', source: 's', title: 't', content: [] },
            { type: 'document', source: { type: 'text', data: 'ok' } },
            {
              type: 'tool_result',
              tool_use_id: 'a',
              content: [
                { type: 'text', text: 'x' },
                { type: 'tool_reference', tool_name: 'Read' },
                { type: 'tool_reference', tool_name: 'Write' },
              ],
            },
          ],
        },
        { role: 'system', content: [{ type: 'container_upload', file_id: 'f' }] },
      ],
    });
    expect(droppedBlocks(body.messages)).toEqual([
      'messages.*.content.*(server_tool_use)',
      // A search result with no text blocks has nothing to read.
      'messages.*.content.*(search_result)',
      'messages.*.content.*.content.*(tool_reference)',
      'messages.*.content.*(container_upload)',
    ]);
  });
});

describe('responses pivot', () => {
  it('lists input items and parts of other kinds instead of refusing them', () => {
    const pivot = toChat(
      {
        model: 'm',
        input: [
          { type: 'mcp_approval_response', approve: true, approval_request_id: 'r' },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Hi' },
              { type: 'input_audio', input_audio: { data: 'x', format: 'wav' } },
            ],
          },
        ],
      },
      [{ type: 'item_reference', id: 'msg_0' }],
    );
    expect(pivot.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(pivot.dropped).toEqual([
      'input.*(item_reference)',
      'input.*(mcp_approval_response)',
      'input.*.content.*(input_audio)',
    ]);
  });
});

describe('inClientOrder', () => {
  it('puts every object back in the order it was sent, the added defaults last', () => {
    const sent = {
      messages: [
        {
          content: [
            { source: { data: 'x', type: 'text' }, type: 'document' },
            { cache_control: { type: 'ephemeral' }, tool_use_id: 't', type: 'tool_result' },
          ],
          role: 'user',
        },
      ],
      max_tokens: 8,
      model: 'm',
    };
    const validated = zCreateMessageRequest.parse(sent);
    expect(JSON.stringify(validated)).not.toBe(JSON.stringify({ ...sent, stream: false }));
    const ordered = inClientOrder(validated, sent);
    expect(JSON.stringify(ordered)).toBe(JSON.stringify({ ...sent, stream: false }));
  });

  it('leaves out what validation left out, and returns the client object it was given', () => {
    const sent = { a: { type: 'url', url: 'u', extra: 1 } };
    expect(inClientOrder({ a: { type: 'url', url: 'u' } }, sent)).toEqual({
      a: { type: 'url', url: 'u' },
    });
    expect(inClientOrder(sent, sent)).toBe(sent);
  });
});

describe('foldSystemTurns', () => {
  it('moves system turns, in order, to the end of system: text kept, readable text taken, the rest left out', () => {
    const body = zCreateMessageRequest.parse({
      model: 'm',
      max_tokens: 8,
      system: 'Be brief.',
      messages: [
        { role: 'system', content: 'First.' },
        { role: 'user', content: 'Hi' },
        {
          role: 'system',
          content: [
            { type: 'text', text: 'Second.', cache_control: { type: 'ephemeral' } },
            { type: 'document', source: { type: 'text', data: 'Third.' } },
            { type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } },
            { type: 'container_upload', file_id: 'f' },
          ],
        },
      ],
    });
    expect(hasSystemTurns(body)).toBe(true);
    const folded = foldSystemTurns(body);
    expect(folded.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Second.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Third.' },
    ]);
    expect(folded.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(hasSystemTurns(folded)).toBe(false);
    expect(folded.max_tokens).toBe(8);
  });

  it('keeps an array system as it is, and adds one without any', () => {
    const turn = { role: 'system' as const, content: 'Later.' };
    const user = { role: 'user' as const, content: 'Hi' };
    const cached = { type: 'text' as const, text: 'A', cache_control: { type: 'ephemeral' } };
    expect(foldSystemTurns({ system: [cached], messages: [user, turn] }).system).toEqual([
      cached,
      { type: 'text', text: 'Later.' },
    ]);
    const bare: Conversation = { messages: [turn, user] };
    expect(foldSystemTurns(bare).system).toEqual([{ type: 'text', text: 'Later.' }]);
  });
});

/**
 * The upstream SSE parser: OpenAI's one-line events take a fast path, everything else (Anthropic's
 * event + data, CRLF framing, multi-line data, comments) is read line by line. Every split of the
 * input across pushes must give the same events.
 */
import { describe, expect, it } from 'vitest';
import { type SseEvent, SseParser } from '../../src/translate/sse.js';

const parseAll = (parts: string[]): SseEvent[] => {
  const parser = new SseParser();
  return [...parts.flatMap((part) => parser.push(part)), ...parser.flush()];
};

const MIXED =
  'data: {"a":1}\n\n' +
  ': keep-alive comment\n\n' +
  'event: content_block_delta\ndata: {"b":2}\n\n' +
  'data:no-space\n\n' +
  'data: line one\ndata: line two\n\n' +
  'id: 7\nretry: 100\ndata: with other fields\n\n' +
  'event: ping\n\n' +
  'data: [DONE]\n\n';

const MIXED_EVENTS = [
  { event: null, data: '{"a":1}', raw: 'data: {"a":1}\n\n' },
  {
    event: 'content_block_delta',
    data: '{"b":2}',
    raw: 'event: content_block_delta\ndata: {"b":2}\n\n',
  },
  { event: null, data: 'no-space', raw: 'data:no-space\n\n' },
  { event: null, data: 'line one\nline two', raw: 'data: line one\ndata: line two\n\n' },
  {
    event: null,
    data: 'with other fields',
    raw: 'id: 7\nretry: 100\ndata: with other fields\n\n',
  },
  { event: 'ping', data: '', raw: 'event: ping\n\n' },
  { event: null, data: '[DONE]', raw: 'data: [DONE]\n\n' },
];

describe('SseParser', () => {
  it('parses one-line, multi-field and multi-line events and skips comments', () => {
    expect(parseAll([MIXED])).toEqual(MIXED_EVENTS);
  });

  it('gives the same events for every split of the input into two pushes', () => {
    for (let at = 0; at <= MIXED.length; at++) {
      expect(parseAll([MIXED.slice(0, at), MIXED.slice(at)])).toEqual(MIXED_EVENTS);
    }
  });

  it('gives the same events fed one character at a time', () => {
    expect(parseAll([...MIXED])).toEqual(MIXED_EVENTS);
  });

  it('reads CRLF framing, and a CRLF stream split inside its terminators', () => {
    const crlf = 'data: {"a":1}\r\n\r\nevent: message_stop\r\ndata: {"c":3}\r\n\r\n';
    const expected = [
      { event: null, data: '{"a":1}', raw: 'data: {"a":1}\r\n\r\n' },
      {
        event: 'message_stop',
        data: '{"c":3}',
        raw: 'event: message_stop\r\ndata: {"c":3}\r\n\r\n',
      },
    ];
    for (let at = 0; at <= crlf.length; at++) {
      expect(parseAll([crlf.slice(0, at), crlf.slice(at)])).toEqual(expected);
    }
  });

  it('returns an unterminated last event from flush(), and nothing for trailing blanks', () => {
    expect(parseAll(['data: {"a":1}\n\ndata: cut'])).toEqual([
      { event: null, data: '{"a":1}', raw: 'data: {"a":1}\n\n' },
      { event: null, data: 'cut', raw: 'data: cut' },
    ]);
    expect(parseAll(['data: x\n\n', '\n'])).toEqual([
      { event: null, data: 'x', raw: 'data: x\n\n' },
    ]);
  });
});

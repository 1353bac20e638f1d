// The SSE parser's `raw: true` mode (each event's exact text, for pass-through), and the parsing
// behaviours the gateway's upstream relay relies on. The WHATWG cases and the comparison with
// eventsource-parser are in @modelgate/stream's tests, which use this parser through its re-export.
import { describe, expect, it } from 'vitest';
import { type RawSseEvent, type SseEvent, SseParser } from '../src/sse.js';

const encoder = new TextEncoder();

/** Feeds `parts` as text to a raw parser; `end()` unless told not to. */
function parseRaw(parts: readonly string[], { end = true } = {}): RawSseEvent[] {
  const events: RawSseEvent[] = [];
  const parser = new SseParser({ raw: true, onEvent: (e) => events.push(e) });
  for (const part of parts) parser.feed(part);
  if (end) parser.end();
  return events;
}

function parsePlain(parts: readonly string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser({ onEvent: (e) => events.push(e) });
  for (const part of parts) parser.feed(part);
  parser.end();
  return events;
}

/** Every way to cut `text` into two pieces, and into three when it is short enough. */
function* splits(text: string): Generator<string[]> {
  for (let a = 0; a <= text.length; a++) {
    yield [text.slice(0, a), text.slice(a)];
    if (text.length > 120) continue;
    for (let b = a; b <= text.length; b++)
      yield [text.slice(0, a), text.slice(a, b), text.slice(b)];
  }
}

const ev = (
  data: string,
  raw: string,
  fields: { event?: string; id?: string } = {},
): RawSseEvent => ({ event: fields.event, data, id: fields.id, raw });

/** Streams with their expected events; each case names the construct it covers. */
const CASES: { name: string; text: string; events: RawSseEvent[] }[] = [
  {
    name: 'LF, a comment alone, comments inside events, extra blank lines',
    text:
      'data: {"a":1}\n\n' +
      ': keep-alive\n\n' +
      ': inside, first\ndata: x\n\n\n\n' +
      'data: y\n: inside, last\n\n',
    events: [
      ev('{"a":1}', 'data: {"a":1}\n\n'),
      ev('x', ': inside, first\ndata: x\n\n'),
      ev('y', 'data: y\n: inside, last\n\n'),
    ],
  },
  {
    name: 'Anthropic-style events and multi-line data',
    text:
      'event: content_block_delta\ndata: {"b":2}\n\n' +
      'data: line one\ndata: line two\n\n' +
      'id: 7\nretry: 100\nevent: e\ndata: with other fields\n\n',
    events: [
      ev('{"b":2}', 'event: content_block_delta\ndata: {"b":2}\n\n', {
        event: 'content_block_delta',
      }),
      ev('line one\nline two', 'data: line one\ndata: line two\n\n'),
      ev('with other fields', 'id: 7\nretry: 100\nevent: e\ndata: with other fields\n\n', {
        event: 'e',
        id: '7',
      }),
    ],
  },
  {
    name: 'CRLF',
    text: 'data: {"a":1}\r\n\r\nevent: message_stop\r\n: c\r\ndata: {"c":3}\r\n\r\n',
    events: [
      ev('{"a":1}', 'data: {"a":1}\r\n\r\n'),
      ev('{"c":3}', 'event: message_stop\r\n: c\r\ndata: {"c":3}\r\n\r\n', {
        event: 'message_stop',
      }),
    ],
  },
  {
    name: 'CR alone, and line ends mixed inside one event',
    text: 'event: e\rdata: one\rdata: two\r\rdata: a\r\ndata: b\rdata: c\n\r\n',
    events: [
      ev('one\ntwo', 'event: e\rdata: one\rdata: two\r\r', { event: 'e' }),
      ev('a\nb\nc', 'data: a\r\ndata: b\rdata: c\n\r\n'),
    ],
  },
  {
    name: 'a leading BOM, which belongs to no event',
    text: '\uFEFFdata: \uFEFFx\n\n: c\ndata: é👋\n\n',
    events: [ev('\uFEFFx', 'data: \uFEFFx\n\n'), ev('é👋', ': c\ndata: é👋\n\n')],
  },
];

describe('SseParser, raw: true', () => {
  for (const { name, text, events } of CASES) {
    it(`gives each event's exact text for every split of the input (${name})`, () => {
      for (const parts of splits(text))
        expect(parseRaw(parts), JSON.stringify(parts)).toEqual(events);
      expect(parseRaw([...text])).toEqual(events);
    });
  }

  it('gives the same raw text fed as bytes split anywhere, inside a BOM or a UTF-8 sequence', () => {
    const { text, events } = CASES.at(-1)!;
    const bytes = encoder.encode(text);
    for (let a = 0; a <= bytes.length; a++) {
      for (let b = a; b <= bytes.length; b++) {
        const seen: RawSseEvent[] = [];
        const parser = new SseParser({ raw: true, onEvent: (e) => seen.push(e) });
        for (const piece of [bytes.slice(0, a), bytes.slice(a, b), bytes.slice(b)]) {
          parser.feedBytes(piece);
        }
        parser.end();
        expect(seen, `${a}/${b}`).toEqual(events);
      }
    }
  });

  it('holds an event ended by a lone CR until the next chunk or end() tells whether LF follows', () => {
    const parts = ['data: a\r\r'];
    expect(parseRaw(parts, { end: false })).toEqual([]);
    expect(parseRaw(parts)).toEqual([ev('a', 'data: a\r\r')]);
    expect(parseRaw([...parts, '\ndata: b\n\n'])).toEqual([
      ev('a', 'data: a\r\r\n'),
      ev('b', 'data: b\n\n'),
    ]);
  });

  it('forgets the raw text of an event left unfinished at end(), and starts afresh', () => {
    const events: RawSseEvent[] = [];
    const parser = new SseParser({ raw: true, onEvent: (e) => events.push(e) });
    parser.feed('data: cut');
    parser.end();
    parser.feed('data: next\n\n');
    expect(events).toEqual([ev('next', 'data: next\n\n')]);
  });

  it('on random streams and random chunks (seeded), each raw text parses alone to its event', () => {
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rand = prng(seed);
      const text = randomStream(rand);
      const events = parseRaw(randomPieces(text, rand));
      // The same events as without raw, in the order they appear in the input, each its own text.
      expect(
        events.map(({ raw: _, ...plain }) => plain),
        `seed ${seed}`,
      ).toEqual(parsePlain([text]));
      let from = 0;
      for (const event of events) {
        const at = text.indexOf(event.raw, from);
        expect(at, `seed ${seed}`).toBeGreaterThanOrEqual(from);
        from = at + event.raw.length;
        const { raw: _, ...plain } = event;
        expect(parsePlain([event.raw]), `seed ${seed}`).toEqual([plain]);
      }
      compared += events.length;
    }
    expect(compared).toBeGreaterThan(500);
  });
});

describe('SseParser without raw', () => {
  it('gives events without a raw field', () => {
    expect(parsePlain(['event: a\ndata: x\n\n'])).toEqual([
      { event: 'a', data: 'x', id: undefined },
    ]);
    expect(Object.keys(parsePlain(['data: x\n\n'])[0]!)).toEqual(['event', 'data', 'id']);
  });
});

// What the gateway's upstream relay relied on when it had a parser of its own, kept here. Two of
// its behaviours differ on purpose, as the WHATWG rules say: an `event:` without any `data:` is not
// dispatched, and an event left without its blank line at end of input is dropped.
describe('SseParser, the gateway relay cases', () => {
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
    ev('{"a":1}', 'data: {"a":1}\n\n'),
    ev('{"b":2}', 'event: content_block_delta\ndata: {"b":2}\n\n', {
      event: 'content_block_delta',
    }),
    ev('no-space', 'data:no-space\n\n'),
    ev('line one\nline two', 'data: line one\ndata: line two\n\n'),
    ev('with other fields', 'id: 7\nretry: 100\ndata: with other fields\n\n', { id: '7' }),
    ev('[DONE]', 'data: [DONE]\n\n'),
  ];

  it('parses one-line, multi-field and multi-line events and skips comments', () => {
    expect(parseRaw([MIXED])).toEqual(MIXED_EVENTS);
  });

  it('gives the same events for every split into two pushes, and one character at a time', () => {
    for (let at = 0; at <= MIXED.length; at++) {
      expect(parseRaw([MIXED.slice(0, at), MIXED.slice(at)])).toEqual(MIXED_EVENTS);
    }
    expect(parseRaw([...MIXED])).toEqual(MIXED_EVENTS);
  });

  it('reads CRLF framing split anywhere, inside its terminators too', () => {
    const crlf = 'data: {"a":1}\r\n\r\nevent: message_stop\r\ndata: {"c":3}\r\n\r\n';
    const expected = [
      ev('{"a":1}', 'data: {"a":1}\r\n\r\n'),
      ev('{"c":3}', 'event: message_stop\r\ndata: {"c":3}\r\n\r\n', { event: 'message_stop' }),
    ];
    for (let at = 0; at <= crlf.length; at++) {
      expect(parseRaw([crlf.slice(0, at), crlf.slice(at)])).toEqual(expected);
    }
  });

  it('drops an unterminated last event at end(), and trailing blank lines dispatch nothing', () => {
    expect(parseRaw(['data: {"a":1}\n\ndata: cut'])).toEqual([ev('{"a":1}', 'data: {"a":1}\n\n')]);
    expect(parseRaw(['data: x\n\n', '\n'])).toEqual([ev('x', 'data: x\n\n')]);
  });
});

/** A small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES = ['a', '{"x":1}', ' ', ':', 'é', '👋', '[DONE]', ''];

/** Lines of every kind (data, event, id, retry, comments, unknown fields, blanks), any line end. */
function randomStream(rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const kinds = ['data: ', 'data:', 'event: ', 'id: ', 'retry: 5', ': ', 'foo: ', 'data'];
  let out = '';
  const lines = 10 + Math.floor(rand() * 40);
  for (let i = 0; i < lines; i++) {
    if (rand() < 0.3)
      out += ''; // a blank line: ends the event
    else out += pick(kinds) + pick(VALUES) + (rand() < 0.5 ? pick(VALUES) : '');
    out += pick(['\n', '\r\n', '\r']);
  }
  return out;
}

function randomPieces(text: string, rand: () => number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = rand() < 0.3 ? 1 : 1 + Math.floor(rand() * 20);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

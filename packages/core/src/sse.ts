// `@modelgate/core/sse`: the one server-sent events parser of modelgate, used by the gateway
// (upstream provider streams) and by `@modelgate/stream` (the gateway's streams, client side).
// WHATWG "event stream interpretation": bytes in, events out. Handles CRLF / CR / LF line ends, a
// leading BOM, comments, multi-line data, `event:`, `id:`, `retry:`, and chunk boundaries anywhere
// (inside a line, a CRLF pair, or a UTF-8 sequence).
//
// Throughput: lines are parsed in place in each chunk, by index, so a chunk's text is never
// copied; only a line cut by a chunk boundary is joined, once, when its end arrives. The
// unfinished line is kept as a rope (`+=` without reading it), so a long line arriving in many
// small chunks costs linear, not quadratic, time. The raw text of an event (`raw: true`) is kept
// the same way: a slice of the chunk it ends in, plus a rope of what earlier chunks held of it.

/** One dispatched event. `event` and `id` are those set inside this event, or `undefined`. */
export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

/**
 * An event of a parser created with `raw: true`. `raw` is the event's exact text as received,
 * from its first line through the blank line that ended it, line ends and comment lines inside it
 * included, so a proxy can forward it unchanged. A stream's leading BOM, blank lines between
 * events, and blocks that dispatch nothing (comments alone, an `event:` without `data:`) belong to
 * no event's `raw`.
 */
export interface RawSseEvent extends SseEvent {
  raw: string;
}

interface SseParserHooks {
  /** A `retry:` field with a valid integer (milliseconds). */
  onRetry?(ms: number): void;
  /** A comment line (`: keep-alive`), without the colon and one leading space. */
  onComment?(comment: string): void;
}

/** Options of a parser that gives events without their raw text (the default). */
export interface SseParserCallbacks extends SseParserHooks {
  onEvent(event: SseEvent): void;
  raw?: false;
}

/** Options of a parser that also gives each event's raw text. */
export interface RawSseParserCallbacks extends SseParserHooks {
  onEvent(event: RawSseEvent): void;
  raw: true;
}

export type SseParserOptions = SseParserCallbacks | RawSseParserCallbacks;

const LF = 10;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

/** `data:` at `i`, by char codes: cheaper than `startsWith` on the line nearly every byte is in. */
function isDataField(text: string, i: number): boolean {
  return (
    text.charCodeAt(i) === 100 && // d
    text.charCodeAt(i + 1) === 97 && // a
    text.charCodeAt(i + 2) === 116 && // t
    text.charCodeAt(i + 3) === 97 && // a
    text.charCodeAt(i + 4) === COLON
  );
}

/** `event:` at `i`, the same way. */
function isEventField(text: string, i: number): boolean {
  return (
    text.charCodeAt(i) === 101 && // e
    text.charCodeAt(i + 1) === 118 && // v
    text.charCodeAt(i + 2) === 101 && // e
    text.charCodeAt(i + 3) === 110 && // n
    text.charCodeAt(i + 4) === 116 && // t
    text.charCodeAt(i + 5) === COLON
  );
}

/**
 * Incremental parser. Feed it bytes (or already decoded text) in chunks of any size.
 *
 * @example
 * ```ts
 * import { SseParser } from '@modelgate/core/sse';
 *
 * const parser = new SseParser({ onEvent: (e) => console.log(e.event, e.data) });
 * parser.feedBytes(new TextEncoder().encode('event: ping\ndata: {}\n\n'));
 *
 * // A proxy that forwards what it received, byte for byte:
 * const relay = new SseParser({ raw: true, onEvent: (e) => forward(e.raw) });
 * ```
 */
export class SseParser {
  /** The last `id:` seen on this connection (persists across events, as `EventSource.lastEventId`). */
  lastEventId = '';
  private readonly decoder = new TextDecoder(); // strips a leading UTF-8 BOM
  /** The start of a line whose end has not arrived yet (without its line end). */
  private partial = '';
  /**
   * The last chunk ended in a CR, which ended `partial`. The line is held back until the next
   * chunk (or `end()`) tells whether an LF follows, so a CRLF split across chunks counts once.
   */
  private heldCR = false;
  private started = false;
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined;
  private eventId: string | undefined;
  /** What earlier chunks held of the current event's raw text (`raw: true` only). */
  private rawHead = '';
  /** Where the current event's raw text starts in the chunk being parsed. */
  private rawStart = 0;

  /** `options.raw`, read once: checked at the end of every chunk. */
  private readonly keepsRaw: boolean;

  constructor(private readonly options: SseParserOptions) {
    this.keepsRaw = options.raw === true;
  }

  /** Decodes UTF-8 across chunk boundaries, then parses. */
  feedBytes(bytes: Uint8Array): void {
    // The decoder drops the BOM itself; a second U+FEFF is content, not another BOM.
    const text = this.decoder.decode(bytes, { stream: true });
    if (text.length > 0) {
      this.started = true;
      this.feed(text);
    }
  }

  /** Parses decoded text. A leading BOM (U+FEFF) of the first chunk is dropped. */
  feed(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) start = 1;
    }
    this.rawStart = start;
    if (this.heldCR) {
      // The held line's end is the CR, or the CRLF when this chunk starts with the LF.
      this.heldCR = false;
      if (text.charCodeAt(start) === LF) start++;
      this.flushPartial(text, start);
    }
    const length = text.length;
    let lf = text.indexOf('\n', start);
    // Searched once per chunk: a chunk without CR (the usual case) takes the LF-only loop.
    let cr = text.indexOf('\r', start);
    if (this.partial.length > 0) {
      // Complete the line the previous chunk cut.
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end === -1) {
        this.partial += start === 0 ? text : text.slice(start);
        this.keepRaw(text);
        return;
      }
      this.partial += text.slice(start, end);
      if (end === cr && cr === length - 1) {
        this.heldCR = true;
        this.keepRaw(text);
        return;
      }
      start = end === cr && text.charCodeAt(cr + 1) === LF ? cr + 2 : end + 1;
      this.flushPartial(text, start);
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    }
    start = cr === -1 ? this.parseLfLines(text, start, lf) : this.parseLines(text, start, lf, cr);
    // The held CR itself is not part of the line.
    if (start < length) this.partial = text.slice(start, this.heldCR ? length - 1 : length);
    this.keepRaw(text);
  }

  /**
   * End of input. Per the specification an event without its terminating blank line is
   * discarded, as is an unterminated last line; a last line ending in a lone CR is complete.
   */
  end(): void {
    const rest = this.decoder.decode();
    if (rest.length > 0) this.feed(rest);
    if (this.heldCR) {
      this.heldCR = false;
      this.rawStart = 0;
      this.flushPartial('', 0);
    }
    this.partial = '';
    this.rawHead = '';
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
    this.eventId = undefined;
  }

  /** Parses the line held in `partial`, whose line end finished at `text[next]`. */
  private flushPartial(text: string, next: number): void {
    const line = this.partial;
    this.partial = '';
    if (line.length === 0) this.dispatch(text, next);
    else this.parseLine(line, 0, line.length);
  }

  /** At the end of a chunk: what the chunk held of an event still open (`raw: true` only). */
  private keepRaw(text: string): void {
    if (this.keepsRaw && this.rawStart < text.length) {
      this.rawHead += this.rawStart === 0 ? text : text.slice(this.rawStart);
    }
  }

  /**
   * The lines of a chunk with no CR from `start` on; `lf` is the first LF at or after `start`.
   * Returns where the unfinished line starts.
   */
  private parseLfLines(text: string, start: number, lf: number): number {
    while (lf !== -1) {
      if (lf === start) {
        this.dispatch(text, lf + 1);
      } else if (isDataField(text, start)) {
        const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, lf);
        // The usual event is one data line then a blank line: emit it without buffering.
        if (this.dataLines === 0 && text.charCodeAt(lf + 1) === LF) {
          start = lf + 2;
          this.emit(value, text, start);
          lf = text.indexOf('\n', start);
          continue;
        }
        this.appendData(value);
      } else {
        this.parseLine(text, start, lf);
      }
      start = lf + 1;
      lf = text.indexOf('\n', start);
    }
    return start;
  }

  /**
   * The lines of a chunk with any line ends; `lf` and `cr` are the first of each at or after
   * `start` (-1 for none). Sets `heldCR` when the chunk ends in a CR. Returns where the
   * unfinished line starts.
   */
  private parseLines(text: string, start: number, lf: number, cr: number): number {
    const length = text.length;
    while (start < length) {
      // Searched again only once passed, so each character is scanned at most once per kind.
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        // A CR as the last character may be the first half of a CRLF split across chunks.
        if (cr === length - 1) {
          this.heldCR = true;
          break;
        }
        end = cr;
        next = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
      }
      if (start === end) this.dispatch(text, next);
      else this.parseLine(text, start, end);
      start = next;
    }
    return start;
  }

  /** One line that is not blank, `text[start, end)`, without its line end. */
  private parseLine(text: string, start: number, end: number): void {
    if (isDataField(text, start)) {
      this.appendData(
        text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end),
      );
      return;
    }
    // Anthropic-style streams name every event: the second most common line.
    if (isEventField(text, start)) {
      this.eventType =
        text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || undefined;
      return;
    }
    // The field name runs to the first colon, or to the end of a line without one.
    let colon = start;
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    const valueStart =
      colon === end ? end : text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    if (colon === start) {
      this.options.onComment?.(text.slice(valueStart, end));
      return;
    }
    const value = valueStart < end ? text.slice(valueStart, end) : '';
    // Field names are matched in place (by length, then text) rather than sliced out.
    switch (colon - start) {
      case 4:
        if (text.startsWith('data', start)) this.appendData(value);
        break;
      case 5:
        if (text.startsWith('event', start)) {
          this.eventType = value || undefined;
        } else if (text.startsWith('retry', start) && /^\d+$/.test(value)) {
          this.options.onRetry?.(Number.parseInt(value, 10));
        }
        break;
      case 2:
        if (text.startsWith('id', start) && !value.includes('\0')) {
          this.eventId = value;
          this.lastEventId = value;
        }
        break;
      default:
      // Unknown fields are ignored, as the specification requires.
    }
  }

  private appendData(value: string): void {
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines++;
  }

  /** A blank line, whose line end finished at `text[next]`: the end of an event. */
  private dispatch(text: string, next: number): void {
    if (this.dataLines > 0) {
      this.emit(this.data, text, next);
      this.data = '';
      this.dataLines = 0;
      return;
    }
    // Nothing to dispatch; what the block held (a comment, an `event:` alone) is dropped.
    this.eventType = undefined;
    this.eventId = undefined;
    this.rawHead = '';
    this.rawStart = next;
  }

  /** Hands out the event whose blank line finished at `text[next]`, and starts the next one. */
  private emit(data: string, text: string, next: number): void {
    const options = this.options;
    if (options.raw) {
      const tail =
        this.rawStart === 0 && next === text.length ? text : text.slice(this.rawStart, next);
      const raw = this.rawHead.length === 0 ? tail : this.rawHead + tail;
      this.rawHead = '';
      options.onEvent({ event: this.eventType, data, id: this.eventId, raw });
    } else {
      options.onEvent({ event: this.eventType, data, id: this.eventId });
    }
    this.rawStart = next;
    this.eventType = undefined;
    this.eventId = undefined;
  }
}

/**
 * Reads a byte stream (a fetch `Response.body`) as SSE events. Stopping the iteration early
 * cancels the stream, which closes the connection.
 *
 * @example
 * ```ts
 * for await (const event of readSseEvents(response.body!)) console.log(event.data);
 * ```
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = new SseParser({ onEvent: (event) => queue.push(event) });
  const reader = body.getReader();
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        parser.end();
      } else {
        parser.feedBytes(value);
      }
      // Index loop rather than shift(): a chunk can carry hundreds of small events.
      for (let i = 0; i < queue.length; i++) yield queue[i]!;
      queue.length = 0;
      if (finished) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

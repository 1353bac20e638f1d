// A server-sent events parser (WHATWG "event stream interpretation"): bytes in, events out.
// Handles CRLF / CR / LF line ends, a leading BOM, comments, multi-line data, `event:`, `id:`,
// `retry:`, and chunk boundaries anywhere (inside a line, a CRLF pair, or a UTF-8 sequence).

/** One dispatched event. `event` and `id` are those set inside this event, or `undefined`. */
export interface SseEvent {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

export interface SseParserCallbacks {
  onEvent(event: SseEvent): void;
  /** A `retry:` field with a valid integer (milliseconds). */
  onRetry?(ms: number): void;
  /** A comment line (`: keep-alive`), without the colon and one leading space. */
  onComment?(comment: string): void;
}

const LF = 10;
const SPACE = 32;
const COLON = 58;

/**
 * Incremental parser. Feed it bytes (or already decoded text) in chunks of any size.
 *
 * @example
 * ```ts
 * const parser = new SseParser({ onEvent: (e) => console.log(e.event, e.data) });
 * parser.feedBytes(new TextEncoder().encode('event: ping\ndata: {}\n\n'));
 * ```
 */
export class SseParser {
  /** The last `id:` seen on this connection (persists across events, as `EventSource.lastEventId`). */
  lastEventId = '';
  private readonly decoder = new TextDecoder(); // strips a leading UTF-8 BOM
  private buffer = '';
  private started = false;
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined;
  private eventId: string | undefined;

  constructor(private readonly callbacks: SseParserCallbacks) {}

  /** Decodes UTF-8 across chunk boundaries, then parses. */
  feedBytes(bytes: Uint8Array): void {
    this.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /** Parses decoded text. A leading BOM (U+FEFF) of the first chunk is dropped. */
  feed(text: string): void {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const buf = this.buffer.length === 0 ? text : this.buffer + text;
    this.buffer = buf.slice(this.parseLines(buf, false));
  }

  /**
   * End of input. Per the specification an event without its terminating blank line is discarded,
   * so this only flushes the decoder and a final line ending in a lone CR.
   */
  end(): void {
    const rest = this.decoder.decode();
    const buf = this.buffer + rest;
    this.buffer = buf.slice(this.parseLines(buf, true));
  }

  /** Parses every complete line of `buf`; returns the index where the unfinished line starts. */
  private parseLines(buf: string, atEnd: boolean): number {
    const length = buf.length;
    let start = 0;
    // Positions of the next LF and CR at or after `start`; searched again only once passed, so a
    // chunk without any CR costs one failed search, not one per line.
    let lf = buf.indexOf('\n');
    let cr = buf.indexOf('\r');
    while (start < length) {
      if (lf !== -1 && lf < start) lf = buf.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = buf.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) {
        if (lf === -1) break;
        end = lf;
        next = lf + 1;
      } else {
        // A CR as the last character may be the first half of a CRLF split across chunks.
        if (cr === length - 1 && !atEnd) break;
        end = cr;
        next = buf.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1;
      }
      this.parseLine(buf, start, end);
      start = next;
    }
    return start;
  }

  private parseLine(buf: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    // Fast path for the line that carries nearly all the bytes.
    if (buf.startsWith('data:', start)) {
      this.appendData(buf.slice(buf.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      return;
    }
    if (buf.charCodeAt(start) === COLON) {
      if (this.callbacks.onComment) {
        this.callbacks.onComment(
          buf.slice(buf.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end),
        );
      }
      return;
    }
    const line = buf.slice(start, end);
    const colon = line.indexOf(':');
    if (colon === -1) {
      this.field(line, '');
      return;
    }
    const valueStart = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    this.field(line.slice(0, colon), line.slice(valueStart));
  }

  private field(name: string, value: string): void {
    switch (name) {
      case 'data':
        this.appendData(value);
        break;
      case 'event':
        this.eventType = value || undefined;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.eventId = value;
          this.lastEventId = value;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.callbacks.onRetry?.(Number.parseInt(value, 10));
        break;
      default:
      // Unknown fields are ignored, as the specification requires.
    }
  }

  private appendData(value: string): void {
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines++;
  }

  private dispatch(): void {
    if (this.dataLines > 0) {
      this.callbacks.onEvent({ event: this.eventType, data: this.data, id: this.eventId });
    }
    this.data = '';
    this.dataLines = 0;
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

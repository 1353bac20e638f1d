/**
 * Server-sent events, both directions, kept deliberately small: upstream bodies are split into
 * events without copying more than one partial line, and outgoing events are written as the
 * exact bytes the vendor SDKs parse (`data: …\n\n` for OpenAI, `event: …\ndata: …\n\n` for
 * Anthropic).
 */

/** One SSE event as received: `event` is null when the upstream sent no `event:` line (OpenAI). */
export interface SseEvent {
  event: string | null;
  data: string;
  /** The event's exact bytes as received, including the blank line that ended it. */
  raw: string;
}

/**
 * Incremental SSE parser: feed it decoded text, get back the complete events it contained.
 *
 * @example
 * const parser = new SseParser();
 * for (const ev of parser.push('data: {"a":1}\n\n')) console.log(ev.data); // {"a":1}
 */
export class SseParser {
  private buffer = '';
  // Once a carriage return has been seen, events may end in \r\n\r\n too; until then the parser
  // looks for \n\n alone (one scan per chunk instead of two).
  private crlf = false;

  /** Adds text and returns every event completed by it. */
  push(text: string): SseEvent[] {
    const buffer = this.buffer === '' ? text : this.buffer + text;
    if (!this.crlf && text.includes('\r')) this.crlf = true;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const end = this.findEventEnd(buffer, start);
      if (end === -1) break;
      const next = buffer.startsWith('\r\n\r\n', end) ? end + 4 : end + 2;
      const raw = start === 0 && next === buffer.length ? buffer : buffer.slice(start, next);
      const event = parseEventBlock(buffer, start, end, raw);
      if (event) events.push(event);
      start = next;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
    return events;
  }

  /** Returns the event left unterminated at end of input, if it carried data. */
  flush(): SseEvent[] {
    const rest = this.buffer;
    this.buffer = '';
    if (rest.trim() === '') return [];
    const event = parseEventBlock(rest, 0, rest.length, rest);
    return event ? [event] : [];
  }

  /** Where the first event from `from` ends (its blank line), or -1. */
  private findEventEnd(buffer: string, from: number): number {
    // Events end at a blank line: \n\n, or \r\n\r\n once the upstream has used CRLF.
    const lf = buffer.indexOf('\n\n', from);
    if (!this.crlf) return lf;
    const crlf = buffer.indexOf('\r\n\r\n', from);
    if (crlf !== -1 && (lf === -1 || crlf < lf)) return crlf;
    return lf;
  }
}

const CR = 13;

/**
 * Parses the block `buffer[start, end)`. A block that is one `data:` line (every OpenAI event)
 * is sliced out directly; anything else is read line by line.
 */
function parseEventBlock(buffer: string, start: number, end: number, raw: string): SseEvent | null {
  const newline = buffer.indexOf('\n', start);
  if ((newline === -1 || newline >= end) && buffer.startsWith('data:', start)) {
    const from = buffer.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
    const to = buffer.charCodeAt(end - 1) === CR ? end - 1 : end;
    return { event: null, data: buffer.slice(from, to), raw };
  }
  let event: string | null = null;
  let data: string | null = null;
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = buffer.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const contentEnd =
      lineEnd > lineStart && buffer.charCodeAt(lineEnd - 1) === CR ? lineEnd - 1 : lineEnd;
    if (contentEnd > lineStart && buffer.charCodeAt(lineStart) !== 58 /* ':' comment */) {
      const colon = buffer.indexOf(':', lineStart);
      const hasValue = colon !== -1 && colon < contentEnd;
      const fieldEnd = hasValue ? colon : contentEnd;
      let valueStart = hasValue ? colon + 1 : contentEnd;
      if (buffer.charCodeAt(valueStart) === 32 && valueStart < contentEnd) valueStart++;
      const field = buffer.slice(lineStart, fieldEnd);
      if (field === 'data') {
        const value = buffer.slice(valueStart, contentEnd);
        data = data === null ? value : `${data}\n${value}`;
      } else if (field === 'event') event = buffer.slice(valueStart, contentEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (data === null && event === null) return null;
  return { event, data: data ?? '', raw };
}

/** `data: <json>\n\n` — the OpenAI framing (no `event:` line). */
export function openAiSse(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** The terminator of OpenAI streams. */
export const OPENAI_DONE = 'data: [DONE]\n\n';

/** `event: <type>\ndata: <json>\n\n` — the Anthropic framing, where `data.type` repeats the name. */
export function anthropicSse(payload: { type: string; [field: string]: unknown }): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

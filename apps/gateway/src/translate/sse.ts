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

  /** Adds text and returns every event completed by it. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const end = findEventEnd(this.buffer);
      if (end === null) break;
      const raw = this.buffer.slice(0, end.next);
      this.buffer = this.buffer.slice(end.next);
      const parsed = parseEventBlock(raw.slice(0, end.blockEnd));
      if (parsed) events.push({ ...parsed, raw });
    }
    return events;
  }

  /** Returns the event left unterminated at end of input, if it carried data. */
  flush(): SseEvent[] {
    const rest = this.buffer;
    this.buffer = '';
    if (rest.trim() === '') return [];
    const parsed = parseEventBlock(rest);
    return parsed ? [{ ...parsed, raw: rest }] : [];
  }
}

function findEventEnd(buffer: string): { blockEnd: number; next: number } | null {
  // Events end at a blank line; accept \n\n, \r\n\r\n and \r\r as the spec allows.
  const lf = buffer.indexOf('\n\n');
  const crlf = buffer.indexOf('\r\n\r\n');
  let best: { blockEnd: number; next: number } | null = null;
  if (lf !== -1) best = { blockEnd: lf, next: lf + 2 };
  if (crlf !== -1 && (best === null || crlf < best.blockEnd)) {
    best = { blockEnd: crlf, next: crlf + 4 };
  }
  return best;
}

function parseEventBlock(block: string): { event: string | null; data: string } | null {
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  if (data.length === 0 && event === null) return null;
  return { event, data: data.join('\n') };
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

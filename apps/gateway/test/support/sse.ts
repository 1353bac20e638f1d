/** The one SSE parser (`@modelgate/core/sse`) with a push API for tests: text in, events out. */
import { type RawSseEvent, SseParser } from '@modelgate/core/sse';

export class PushSseParser {
  private readonly events: RawSseEvent[] = [];
  private readonly parser = new SseParser({ raw: true, onEvent: (e) => this.events.push(e) });

  /** The events completed by `text`. */
  push(text: string): RawSseEvent[] {
    this.parser.feed(text);
    return this.events.splice(0);
  }

  /** The end of the stream: an unterminated last event is dropped, as the standard says. */
  flush(): RawSseEvent[] {
    this.parser.end();
    return this.events.splice(0);
  }
}

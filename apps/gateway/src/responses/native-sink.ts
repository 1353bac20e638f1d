/**
 * A stream from OpenAI's own `/v1/responses`, relayed with the gateway's response id in place of
 * the upstream's (the gateway keeps the conversation: the upstream is asked with `store: false`),
 * the request's own `previous_response_id` and `store` restored, and the completed response kept
 * before the client hears it is done. Every other event passes byte for byte.
 */
import type { Response as ModelResponse } from '@modelgate/core';
import type { StreamSink } from '../translate/stream-sink.js';

/** The events that carry the whole response object. */
const WITH_RESPONSE =
  /^event: (response\.(?:created|in_progress|queued|completed|incomplete|failed))$/m;

export class NativeResponsesSink implements StreamSink {
  private buffer = '';
  private keeping: Promise<void> | null = null;

  /**
   * @param shell the gateway's response: its id, previous_response_id and store replace the
   *   upstream's, its other fields fill what an event's response lacks (a gateway-written failure)
   * @param onCompleted keeps the completed response; never rejects
   */
  constructor(
    private readonly sink: StreamSink,
    private readonly shell: ModelResponse,
    private readonly onCompleted: (response: ModelResponse) => Promise<void>,
  ) {}

  write(text: string): boolean {
    this.buffer += text;
    let ok = true;
    let at = this.buffer.indexOf('\n\n');
    while (at !== -1) {
      const frame = this.buffer.slice(0, at + 2);
      this.buffer = this.buffer.slice(at + 2);
      ok = this.frame(frame) && ok;
      at = this.buffer.indexOf('\n\n');
    }
    return ok;
  }

  onDrain(listener: () => void): void {
    this.sink.onDrain(listener);
  }

  onClientGone(listener: () => void): void {
    this.sink.onClientGone(listener);
  }

  end(): void {
    if (this.buffer !== '') this.sink.write(this.buffer);
    if (this.keeping) void this.keeping.then(() => this.sink.end());
    else this.sink.end();
  }

  destroy(): void {
    this.sink.destroy();
  }

  private frame(frame: string): boolean {
    const type = WITH_RESPONSE.exec(frame)?.[1];
    if (!type) return this.forward(frame);
    const line = frame.split('\n').find((l) => l.startsWith('data:'));
    if (!line) return this.forward(frame);
    const event = JSON.parse(line.slice(5)) as { response: ModelResponse };
    const { id, previous_response_id, store } = this.shell;
    event.response = { ...this.shell, ...event.response, id, previous_response_id, store };
    event.response.output_text ??= outputText(event.response);
    const rewritten = `event: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
    if (type !== 'response.completed' && type !== 'response.incomplete') {
      return this.forward(rewritten);
    }
    // Kept before the client hears it is done, so its next call can name it at once.
    const kept = this.onCompleted(event.response).then(() => void this.sink.write(rewritten));
    this.keeping = this.keeping ? this.keeping.then(() => kept) : kept;
    return true;
  }

  private forward(text: string): boolean {
    if (this.keeping) {
      void this.keeping.then(() => this.sink.write(text));
      return true;
    }
    return this.sink.write(text);
  }
}

/**
 * The text of a response's messages: the raw API leaves `output_text` to the SDKs, the gateway's
 * translated answers carry it, so natively passed answers get it too.
 */
export function outputText(response: ModelResponse): string {
  return response.output
    .flatMap((item) => (item.type === 'message' ? (item.content ?? []) : []))
    .map((part) => (part.type === 'output_text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

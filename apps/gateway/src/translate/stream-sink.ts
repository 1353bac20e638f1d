/**
 * Streamed answers: the text service answers a stream with a {@link StreamWriter}, which fills the
 * body once the edge has the head ready. The writer talks to a {@link StreamSink}, never to a
 * framework or Node object, so the text relay has no adapter knowledge; the one implementation
 * over Node's response lives in the web layer (`http/node-adapter.ts`). It sits with the
 * translators, below the text service, because a translator wraps a sink (the Responses stream).
 */

/** Where a streamed answer goes, as the relay needs it. */
export interface StreamSink {
  /** Writes utf-8 text; `false` when the client's buffer is full (wait for `onDrain`). */
  write(text: string): boolean;
  /** Runs each time the client's buffer has room again after `write` returned false. */
  onDrain(listener: () => void): void;
  /** Runs once when the client goes away before `end()`: at once if it already has. */
  onClientGone(listener: () => void): void;
  /** Ends the body normally. */
  end(): void;
  /** Cuts the connection: the body will not end normally (the relay itself failed). */
  destroy(): void;
}

/** Fills a streamed body; must end or destroy the sink (unless the client goes away first). */
export type StreamWriter = (sink: StreamSink) => void;

/**
 * Streamed answers: a route returns a Response whose status and headers middleware may still edit,
 * and a writer that fills the body once the head is out. The writer talks to a {@link StreamSink},
 * never to a framework or Node object, so the text relay has no adapter knowledge; the one
 * implementation over Node's response lives in `node-adapter.ts`.
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

/** The writers of streamed Responses not yet sent (an entry goes with its Response). */
const writers = new WeakMap<Response, StreamWriter>();

/**
 * A Response whose body `write` produces once the listener has sent the head.
 *
 * @example
 * return streamResponse(200, { 'content-type': 'text/event-stream' }, (sink) => {
 *   sink.write('data: hello\n\n');
 *   sink.end();
 * });
 */
export function streamResponse(
  status: number,
  headers: Record<string, string>,
  write: StreamWriter,
): Response {
  const res = new Response(null, { status, headers });
  writers.set(res, write);
  return res;
}

/** The writer of a streamed Response, or undefined for an ordinary one. */
export function streamWriterOf(res: Response): StreamWriter | undefined {
  return writers.get(res);
}

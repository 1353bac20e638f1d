// Responses API streams: `event: <type>` + `data: {type, sequence_number, …}`, from
// `response.created` to one of `response.completed`, `response.incomplete` or `response.failed`.
// No `[DONE]`.
import {
  type CreateResponseData,
  type CreateResponseRequest,
  type ModelgateClient,
  ModelgateError,
  type Response as ModelResponse,
  type ResponseStreamEvent,
} from '@modelgate/core';
import {
  isRecord,
  ModelgateStream,
  type OpenStream,
  parseEventData,
  postStream,
  type StreamOptions,
} from './event-stream.js';
import type { SseEvent } from './sse.js';

const RESPONSES_PATH: CreateResponseData['url'] = '/v1/responses';

/** A Responses API create body; `stream: true` is added for you. */
export type ResponseStreamRequest = Omit<CreateResponseRequest, 'stream'>;

/** The events that end a response's stream; each carries the whole response. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

/**
 * A streamed response: iterate the events, or await {@link ResponseStream.finalResponse}.
 * `response.failed` (and an `error` event) rejects with a ModelgateError, like a chat stream's
 * error chunk: the stream's `code` is the error's `code` and `type`, and an unknown one is an
 * UpstreamError (502). An event whose `sequence_number` is not above the last one seen (a replay
 * after a reconnect) is skipped.
 */
export class ResponseStream extends ModelgateStream<ResponseStreamEvent> {
  private response: ModelResponse | undefined;
  private finished = false;
  private lastSequence = -1;

  constructor(open: OpenStream, signal?: AbortSignal) {
    super(open, signal);
  }

  protected decode(event: SseEvent): ResponseStreamEvent | undefined {
    const payload = parseEventData(event);
    if (!isRecord(payload)) return undefined;
    if (event.event === 'error' || payload.type === 'error') throw ModelgateError.fromBody(payload);
    if (payload.type === 'response.failed') throw failure(payload);
    const sequence = payload.sequence_number;
    if (typeof sequence === 'number') {
      if (sequence <= this.lastSequence) return undefined;
      this.lastSequence = sequence;
    }
    return payload as ResponseStreamEvent;
  }

  protected accumulate(event: ResponseStreamEvent): void {
    if (event.response) this.response = event.response;
    if (FINAL_EVENTS.has(event.type)) this.finished = true;
  }

  protected isComplete(): boolean {
    return this.finished;
  }

  /**
   * Reads the stream to the end and returns the whole response (`status` `completed` or
   * `incomplete`, its `output` items and `usage`).
   */
  async finalResponse(): Promise<ModelResponse> {
    await this.drain();
    if (!this.response || !this.finished) {
      throw new ModelgateError('The stream carried no final response', {
        code: 'stream_incomplete',
      });
    }
    return this.response;
  }

  /** Reads the stream to the end and returns the text of its `output_text` parts, joined. */
  async text(): Promise<string> {
    const response = await this.finalResponse();
    return response.output
      .flatMap((item) => (item.type === 'message' ? (item.content ?? []) : []))
      .map((part) =>
        part.type === 'output_text' && typeof part.text === 'string' ? part.text : '',
      )
      .join('');
  }
}

/** A `response.failed` event as the error it reports (`response.error`: `{code, message}`). */
function failure(payload: Record<string, unknown>): ModelgateError {
  const response = isRecord(payload.response) ? payload.response : {};
  const error = isRecord(response.error) ? response.error : {};
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : null;
  return ModelgateError.fromBody({
    error: { message: message ?? 'The response failed', type: code, code },
  });
}

/**
 * Streams `POST /v1/responses` with the client's configuration.
 *
 * @example
 * ```ts
 * const stream = streamResponse(client, { model: 'gpt-4o-mini', input: 'Count to 3' });
 * for await (const event of stream) {
 *   if (event.type === 'response.output_text.delta') process.stdout.write(event.delta ?? '');
 * }
 * console.log((await stream.finalResponse()).usage);
 * ```
 */
export function streamResponse(
  client: ModelgateClient,
  body: ResponseStreamRequest,
  options: StreamOptions = {},
): ResponseStream {
  return new ResponseStream(postStream(client, RESPONSES_PATH, body, options), options.signal);
}

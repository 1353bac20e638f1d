// Legacy text completion streams: `data: {text_completion}` chunks ending with `data: [DONE]`.
import {
  type Completion,
  type CompletionUsage,
  type CreateCompletionData,
  type CreateCompletionRequest,
  type ModelgateClient,
  ModelgateError,
} from '@modelgate/core';
import { decodeOpenAIStyleEvent } from './chat.js';
import {
  ModelgateStream,
  type OpenStream,
  type STREAM_DONE,
  type StreamOptions,
} from './event-stream.js';
import type { SseEvent } from './sse.js';

const COMPLETIONS_PATH: CreateCompletionData['url'] = '/v1/completions';

/** A legacy completion request body; `stream: true` is added for you. */
export type CompletionStreamRequest = Omit<CreateCompletionRequest, 'stream'>;

type CompletionChoice = Completion['choices'][number];

/** A streamed legacy completion: each chunk is a `text_completion` whose `choices[].text` is the increment. */
export class CompletionStream extends ModelgateStream<Completion> {
  private first: Completion | undefined;
  private readonly choices = new Map<
    number,
    { text: string; finishReason: CompletionChoice['finish_reason'] }
  >();
  private usage: CompletionUsage | undefined;

  constructor(open: OpenStream, signal?: AbortSignal) {
    super(open, signal);
  }

  protected decode(event: SseEvent): Completion | typeof STREAM_DONE {
    return decodeOpenAIStyleEvent(event) as Completion | typeof STREAM_DONE;
  }

  protected accumulate(chunk: Completion): void {
    this.first ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices) {
      const state = this.choices.get(choice.index) ?? { text: '', finishReason: null };
      state.text += choice.text;
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
      this.choices.set(choice.index, state);
    }
  }

  protected isComplete(): boolean {
    return false;
  }

  /** Reads the stream to the end and returns one `text_completion` with the texts joined. */
  async finalCompletion(): Promise<Completion> {
    await this.drain();
    const first = this.first;
    if (!first) {
      throw new ModelgateError('The stream carried no chunks', { code: 'stream_incomplete' });
    }
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(
        ([index, state]): CompletionChoice => ({
          index,
          text: state.text,
          finish_reason: state.finishReason,
        }),
      );
    return { ...first, choices, ...(this.usage ? { usage: this.usage } : {}) };
  }

  /** Reads the stream to the end and returns the text of the first choice. */
  async text(): Promise<string> {
    await this.drain();
    return this.choices.get(0)?.text ?? '';
  }
}

/**
 * Streams `POST /v1/completions` (legacy) with the client's configuration.
 *
 * @example
 * ```ts
 * const text = await streamCompletion(client, { model: 'gpt-3.5-turbo-instruct', prompt: 'Once' }).text();
 * ```
 */
export function streamCompletion(
  client: ModelgateClient,
  body: CompletionStreamRequest,
  options: StreamOptions = {},
): CompletionStream {
  return new CompletionStream(
    (signal) =>
      client.request({
        ...options,
        method: 'POST',
        path: COMPLETIONS_PATH,
        body: { ...body, stream: true },
        headers: { accept: 'text/event-stream', ...options.headers },
        signal,
      }),
    options.signal,
  );
}

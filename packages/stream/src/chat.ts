// Chat completion streams: `data: {chat.completion.chunk}` events ending with `data: [DONE]`.
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type CompletionUsage,
  type CreateChatCompletionData,
  type CreateChatCompletionRequest,
  type ModelgateClient,
  ModelgateError,
} from '@modelgate/core';
import {
  isRecord,
  ModelgateStream,
  type OpenStream,
  parseEventData,
  STREAM_DONE,
  type StreamOptions,
} from './event-stream.js';
import type { SseEvent } from './sse.js';

const CHAT_PATH: CreateChatCompletionData['url'] = '/v1/chat/completions';

/** A chat request body; `stream: true` is added for you. */
export type ChatStreamRequest = Omit<CreateChatCompletionRequest, 'stream'>;

type ChatChoice = ChatCompletion['choices'][number];

/**
 * What a stream adds up to: a `chat.completion` whose `usage` is present only when the request set
 * `stream_options: { include_usage: true }` (the server sends usage in a last chunk only then).
 */
export type StreamedChatCompletion = Omit<ChatCompletion, 'usage'> &
  Partial<Pick<ChatCompletion, 'usage'>>;

interface ChoiceState {
  content: string;
  sawContent: boolean;
  finishReason: ChatChoice['finish_reason'] | null;
}

/**
 * Decodes chat chunks; an error payload (`data: {"error": {…}}` or `event: error`) throws a
 * ModelgateError. Shared by the legacy completion stream, whose wire format is the same.
 */
export function decodeOpenAIStyleEvent(event: SseEvent): unknown | typeof STREAM_DONE {
  if (event.data === '[DONE]') return STREAM_DONE;
  const payload = parseEventData(event);
  if (event.event === 'error' || (isRecord(payload) && payload.error != null)) {
    throw ModelgateError.fromBody(payload);
  }
  return payload;
}

/** A streamed chat completion: iterate the chunks, or await one of the accumulators. */
export class ChatCompletionStream extends ModelgateStream<ChatCompletionChunk> {
  private first: ChatCompletionChunk | undefined;
  private readonly choices = new Map<number, ChoiceState>();
  private usage: CompletionUsage | undefined;

  constructor(open: OpenStream, signal?: AbortSignal) {
    super(open, signal);
  }

  protected decode(event: SseEvent): ChatCompletionChunk | typeof STREAM_DONE {
    return decodeOpenAIStyleEvent(event) as ChatCompletionChunk | typeof STREAM_DONE;
  }

  protected accumulate(chunk: ChatCompletionChunk): void {
    this.first ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices) {
      const state = this.choices.get(choice.index) ?? {
        content: '',
        sawContent: false,
        finishReason: null,
      };
      this.choices.set(choice.index, state);
      const piece = choice.delta.content;
      if (typeof piece === 'string') {
        state.content += piece;
        state.sawContent = true;
      }
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
    }
  }

  /** The stream ended with `[DONE]`; anything else is incomplete. */
  protected isComplete(): boolean {
    return false;
  }

  /**
   * Reads the stream to the end and returns it as one `chat.completion` (content joined per choice,
   * `usage` from the final usage chunk when `stream_options.include_usage` was set).
   *
   * @example
   * ```ts
   * const completion = await streamChatCompletion(client, body).finalChatCompletion();
   * ```
   */
  async finalChatCompletion(): Promise<StreamedChatCompletion> {
    await this.drain();
    const first = this.first;
    if (!first) {
      throw new ModelgateError('The stream carried no chunks', { code: 'stream_incomplete' });
    }
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(
        ([index, state]): ChatChoice => ({
          index,
          message: { role: 'assistant', content: state.sawContent ? state.content : null },
          // A stream that reached [DONE] has sent every finish_reason; 'stop' only guards the type.
          finish_reason: state.finishReason ?? 'stop',
        }),
      );
    return {
      id: first.id,
      object: 'chat.completion',
      created: first.created,
      model: first.model,
      choices,
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }

  /** Reads the stream to the end and returns the text of the first choice. */
  async text(): Promise<string> {
    await this.drain();
    return this.choices.get(0)?.content ?? '';
  }
}

/**
 * Streams `POST /v1/chat/completions` with the client's configuration (base URL, key, headers,
 * retries before the first byte, `timeoutMs` until the headers arrive).
 *
 * @example
 * ```ts
 * const stream = streamChatCompletion(client, {
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Count to 3' }],
 *   stream_options: { include_usage: true },
 * });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 * ```
 */
export function streamChatCompletion(
  client: ModelgateClient,
  body: ChatStreamRequest,
  options: StreamOptions = {},
): ChatCompletionStream {
  return new ChatCompletionStream(
    (signal) =>
      client.request({
        ...options,
        method: 'POST',
        path: CHAT_PATH,
        body: { ...body, stream: true },
        headers: { accept: 'text/event-stream', ...options.headers },
        signal,
      }),
    options.signal,
  );
}

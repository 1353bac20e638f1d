// Chat completion streams: `data: {chat.completion.chunk}` events ending with `data: [DONE]`.
import type {
  ChatCompletion,
  ChatCompletionChunk,
  CreateChatCompletionData,
  CreateChatCompletionRequest,
  ModelgateClient,
} from '@modelgate/core';
import { ChoiceStream } from './choice-stream.js';
import { postStream, type StreamOptions } from './event-stream.js';

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

/** A streamed chat completion: iterate the chunks, or await one of the accumulators. */
export class ChatCompletionStream extends ChoiceStream<ChatCompletionChunk, ChoiceState> {
  protected initialState(): ChoiceState {
    return { content: '', sawContent: false, finishReason: null };
  }

  protected addChoice(state: ChoiceState, choice: ChatCompletionChunk['choices'][number]): void {
    const piece = choice.delta.content;
    if (typeof piece === 'string') {
      state.content += piece;
      state.sawContent = true;
    }
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
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
    const { first, choices, usage } = await this.drainChoices();
    return {
      id: first.id,
      object: 'chat.completion',
      created: first.created,
      model: first.model,
      choices: choices.map(
        ([index, state]): ChatChoice => ({
          index,
          message: { role: 'assistant', content: state.sawContent ? state.content : null },
          // A stream that reached [DONE] has sent every finish_reason; 'stop' only guards the type.
          finish_reason: state.finishReason ?? 'stop',
        }),
      ),
      ...(usage ? { usage } : {}),
    };
  }

  /** Reads the stream to the end and returns the text of the first choice. */
  async text(): Promise<string> {
    return (await this.firstChoice())?.content ?? '';
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
  return new ChatCompletionStream(postStream(client, CHAT_PATH, body, options), options.signal);
}

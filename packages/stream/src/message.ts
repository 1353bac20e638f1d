// Messages streams (vendor-native): `event: <type>` + `data: {type, …}`, from message_start to
// message_stop, with `ping` anywhere and `error` events mid-stream. No `[DONE]`.
import {
  type CreateMessageData,
  type CreateMessageRequest,
  type Message,
  type MessageStreamEvent,
  type ModelgateClient,
  ModelgateError,
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

const MESSAGES_PATH: CreateMessageData['url'] = '/v1/messages';

/** A messages request body; `stream: true` is added for you. */
export type MessageStreamRequest = Omit<CreateMessageRequest, 'stream'>;

type ContentBlock = Message['content'][number];

/** A streamed message: iterate the events, or await {@link MessageStream.finalMessage}. */
export class MessageStream extends ModelgateStream<MessageStreamEvent> {
  private message: Message | undefined;
  private stopped = false;

  constructor(open: OpenStream, signal?: AbortSignal) {
    super(open, signal);
  }

  protected decode(event: SseEvent): MessageStreamEvent {
    const payload = parseEventData(event);
    if (event.event === 'error' || (isRecord(payload) && payload.type === 'error')) {
      throw ModelgateError.fromBody(payload);
    }
    return payload as MessageStreamEvent;
  }

  protected accumulate(event: MessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.message = { ...event.message, content: [...event.message.content] };
        break;
      case 'content_block_start':
        if (this.message) this.message.content[event.index] = { ...event.content_block };
        break;
      case 'content_block_delta': {
        const block = this.message?.content[event.index];
        if (block && block.type === 'text' && event.delta.type === 'text_delta') {
          (block as ContentBlock & { text: string }).text += event.delta.text;
        }
        break;
      }
      case 'message_delta':
        if (this.message) {
          this.message.stop_reason = event.delta.stop_reason ?? this.message.stop_reason;
          if (event.delta.stop_sequence !== undefined) {
            this.message.stop_sequence = event.delta.stop_sequence;
          }
          // output_tokens is cumulative; input_tokens, when repeated here, may be null.
          const { output_tokens, input_tokens } = event.usage;
          this.message.usage = {
            ...this.message.usage,
            output_tokens,
            ...(input_tokens == null ? {} : { input_tokens }),
          };
        }
        break;
      case 'message_stop':
        this.stopped = true;
        break;
      default:
      // content_block_stop, ping: nothing to accumulate.
    }
  }

  protected isComplete(): boolean {
    return this.stopped;
  }

  /**
   * Reads the stream to the end and returns the whole message: text blocks joined, `stop_reason`
   * and the cumulative `usage.output_tokens` from `message_delta`.
   */
  async finalMessage(): Promise<Message> {
    await this.drain();
    if (!this.message) {
      throw new ModelgateError('The stream carried no message_start', {
        code: 'stream_incomplete',
      });
    }
    return this.message;
  }

  /** Reads the stream to the end and returns the text of all text blocks, joined. */
  async text(): Promise<string> {
    const message = await this.finalMessage();
    return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }
}

/**
 * Streams `POST /v1/messages` with the client's configuration.
 *
 * @example
 * ```ts
 * const stream = streamMessage(client, {
 *   model: 'claude-sonnet-4-5',
 *   max_tokens: 256,
 *   messages: [{ role: 'user', content: 'Hi' }],
 * });
 * for await (const event of stream) {
 *   if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') process.stdout.write(event.delta.text);
 * }
 * console.log((await stream.finalMessage()).usage);
 * ```
 */
export function streamMessage(
  client: ModelgateClient,
  body: MessageStreamRequest,
  options: StreamOptions = {},
): MessageStream {
  return new MessageStream(postStream(client, MESSAGES_PATH, body, options), options.signal);
}

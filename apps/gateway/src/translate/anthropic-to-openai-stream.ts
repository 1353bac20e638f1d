import { chatUsageFromAnthropic, finishReasonFromStopReason } from './response.js';
import { OPENAI_DONE, openAiSse } from './sse.js';
import {
  type MeteredUsage,
  NO_USAGE,
  type OpenAiStreamFormat,
  type StreamTransform,
  TerminableStream,
} from './stream-base.js';
import { openAiStreamError } from './stream-errors.js';
import { mergeAnthropicUsage, meteredFromAnthropic } from './usage.js';
import type {
  AnthropicStreamEvent,
  AnthropicUsage,
  OpenAiChatChunk,
  OpenAiTextCompletion,
  OpenAiUsage,
} from './wire.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

type EventOf<T extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: T }>;

/**
 * Anthropic events → chat completion chunks (or legacy text_completion chunks).
 *
 * @example
 * const t = new AnthropicToOpenAiStream({ includeUsage: false, format: 'chat' });
 * t.push({ type: 'message_start', message }); // ['data: {…"delta":{"role":"assistant","content":""}…}\n\n']
 */
export class AnthropicToOpenAiStream
  extends TerminableStream
  implements StreamTransform<AnthropicStreamEvent>
{
  protected readonly errorEvent = openAiStreamError;
  usage: MeteredUsage = NO_USAGE;
  /** The upstream's usage figures so far (message_start's, then message_delta's over them). */
  private reported: Partial<AnthropicUsage> = {};
  producedText = '';
  completed = false;
  private id = '';
  private model = '';
  private readonly created = nowSeconds();
  private finishReason: string | null = null;
  /** Anthropic block index → position in the chat message's `tool_calls`. */
  private readonly toolIndex = new Map<number, number>();

  constructor(private readonly options: { includeUsage: boolean; format: OpenAiStreamFormat }) {
    super();
  }

  private chunk(delta: OpenAiChatChunk['choices'][number]['delta'], finishReason: string | null) {
    if (this.options.format === 'completion') {
      const chunk: OpenAiTextCompletion = {
        id: this.id,
        object: 'text_completion',
        created: this.created,
        model: this.model,
        choices: [
          { text: delta.content ?? '', index: 0, logprobs: null, finish_reason: finishReason },
        ],
      };
      return openAiSse(chunk);
    }
    const chunk: OpenAiChatChunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (this.options.includeUsage) chunk.usage = null;
    return openAiSse(chunk);
  }

  private usageChunk(usage: OpenAiUsage): string {
    return openAiSse({
      id: this.id,
      object: this.options.format === 'completion' ? 'text_completion' : 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [],
      usage,
    });
  }

  push(event: AnthropicStreamEvent): string[] {
    if (this.ended) return [];
    switch (event.type) {
      case 'message_start': {
        const bare = event.message.id.replace(/^msg_/, '');
        this.id = this.options.format === 'completion' ? `cmpl-${bare}` : `chatcmpl-${bare}`;
        this.model = event.message.model;
        // message_start's output_tokens is a placeholder; the final count comes in message_delta.
        const { output_tokens: _placeholder, ...usage } = event.message.usage ?? {};
        this.meter(usage);
        if (this.options.format === 'completion') return [];
        return [this.chunk({ role: 'assistant', content: '' }, null)];
      }
      case 'content_block_start':
        return this.blockStart(event);
      case 'content_block_delta':
        return this.blockDelta(event);
      case 'message_delta': {
        this.finishReason = finishReasonFromStopReason(event.delta.stop_reason);
        this.meter(event.usage);
        return [this.chunk({}, this.finishReason)];
      }
      case 'message_stop':
        return this.stop();
      case 'error':
        this.ended = true;
        return [openAiStreamError(event.error.type, event.error.message)];
      default:
        // ping, content_block_stop and block types with no chat equivalent.
        return [];
    }
  }

  /** A tool_use block opens a chat tool call (chat only); a text block with text is content. */
  private blockStart(event: EventOf<'content_block_start'>): string[] {
    const block = event.content_block;
    if (block.type === 'tool_use' && this.options.format === 'chat') {
      const index = this.toolIndex.size;
      this.toolIndex.set(event.index, index);
      const name = block.name ?? '';
      this.producedText += name;
      const call = { index, id: block.id ?? '', type: 'function' as const };
      return [this.chunk({ tool_calls: [{ ...call, function: { name, arguments: '' } }] }, null)];
    }
    const text = block.type === 'text' ? (block.text ?? '') : '';
    if (text === '') return [];
    this.producedText += text;
    return [this.chunk({ content: text }, null)];
  }

  /** Argument pieces of an open tool call, or text. */
  private blockDelta(event: EventOf<'content_block_delta'>): string[] {
    if (event.delta.type === 'input_json_delta') {
      const index = this.toolIndex.get(event.index);
      const json = event.delta.partial_json;
      if (index === undefined || !json) return [];
      this.producedText += json;
      return [this.chunk({ tool_calls: [{ index, function: { arguments: json } }] }, null)];
    }
    if (event.delta.type !== 'text_delta' || !event.delta.text) return [];
    this.producedText += event.delta.text;
    return [this.chunk({ content: event.delta.text }, null)];
  }

  private meter(usage: Partial<AnthropicUsage> | null | undefined): void {
    this.reported = mergeAnthropicUsage(this.reported, usage);
    this.usage = meteredFromAnthropic(this.reported);
  }

  /** The normal end: a finish reason if none came, the usage chunk when asked for, `[DONE]`. */
  private stop(): string[] {
    this.completed = true;
    this.ended = true;
    const out: string[] = [];
    if (this.finishReason === null) out.push(this.chunk({}, 'stop'));
    if (this.options.includeUsage) {
      out.push(this.usageChunk(chatUsageFromAnthropic(this.reported)));
    }
    out.push(OPENAI_DONE);
    return out;
  }
}

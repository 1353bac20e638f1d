import { anthropicUsageFromChat, stopReasonFromFinishReason } from './response.js';
import { anthropicSse } from './sse.js';
import {
  type MeteredUsage,
  NO_USAGE,
  type StreamTransform,
  TerminableStream,
} from './stream-base.js';
import { anthropicStreamError } from './stream-errors.js';
import { meteredFromOpenAi } from './usage.js';
import type { AnthropicMessage, OpenAiChatChunk, OpenAiUsage } from './wire.js';

/** A parsed OpenAI stream item: a chunk, or the `[DONE]` terminator. */
export type OpenAiStreamItem = OpenAiChatChunk | OpenAiStreamError | 'done';

/** A `data:` JSON with an `error` key: an error after the 200 (docs/providers.md#1-openai). */
export interface OpenAiStreamError {
  error: { message?: string; type?: string };
}

function isErrorItem(item: OpenAiStreamItem): item is OpenAiStreamError {
  return typeof item === 'object' && item !== null && 'error' in item && item.error != null;
}

/**
 * Chat completion chunks → Anthropic message events, in the order the Anthropic SDK's
 * accumulator expects: message_start, content_block_start, ping, content_block_delta…,
 * content_block_stop, message_delta, message_stop.
 *
 * @example
 * const t = new OpenAiToAnthropicStream({ estimatedInputTokens: 12 });
 * t.push(chunk); t.push('done'); // message_start … message_stop
 */
export class OpenAiToAnthropicStream
  extends TerminableStream
  implements StreamTransform<OpenAiStreamItem>
{
  protected readonly errorEvent = anthropicStreamError;
  usage: MeteredUsage = NO_USAGE;
  /** The upstream's usage object, when it sent one. */
  private reported: OpenAiUsage | null = null;
  producedText = '';
  completed = false;
  private started = false;
  private blockOpen = false;
  private blockCount = 0;
  private stopReason: string | null = null;
  /** The open block's chat tool-call index, or null while a text block (or none) is open. */
  private openTool: number | null = null;
  /** Chat tool-call index → Anthropic block index. */
  private readonly toolBlocks = new Map<number, number>();

  constructor(private readonly options: { estimatedInputTokens: number }) {
    super();
  }

  private start(chunk: OpenAiChatChunk): string[] {
    if (this.started) return [];
    this.started = true;
    const message: AnthropicMessage = {
      id: `msg_${chunk.id.replace(/^chatcmpl-/, '')}`,
      type: 'message',
      role: 'assistant',
      model: chunk.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // OpenAI reports usage only at the end; the start carries the gateway's estimate and the
      // final message_delta the real count (the SDK overwrites input_tokens from it).
      usage: { input_tokens: this.options.estimatedInputTokens, output_tokens: 0 },
    };
    return [anthropicSse({ type: 'message_start', message })];
  }

  private closeBlock(): string[] {
    if (!this.blockOpen) return [];
    this.blockOpen = false;
    this.openTool = null;
    return [anthropicSse({ type: 'content_block_stop', index: this.blockCount - 1 })];
  }

  /** Opens the next block (closing the open one); the first block start is followed by a ping. */
  private openBlock(block: Record<string, unknown>, out: string[]): void {
    out.push(...this.closeBlock());
    this.blockOpen = true;
    out.push(
      anthropicSse({ type: 'content_block_start', index: this.blockCount++, content_block: block }),
    );
    if (this.blockCount === 1) out.push(anthropicSse({ type: 'ping' }));
  }

  /**
   * Chat tool-call pieces → tool_use blocks. A piece with an unseen index starts a block (OpenAI
   * streams calls one after another); argument pieces become input_json_delta events on the
   * block of their call.
   */
  private toolCalls(calls: NonNullable<OpenAiChatChunk['choices'][number]['delta']['tool_calls']>) {
    const out: string[] = [];
    for (const call of calls) {
      let block = this.toolBlocks.get(call.index);
      if (block === undefined) {
        const name = call.function?.name ?? '';
        this.openBlock(
          {
            type: 'tool_use',
            id: call.id ?? `toolu_${call.index}`,
            name,
            input: {},
          },
          out,
        );
        block = this.blockCount - 1;
        this.toolBlocks.set(call.index, block);
        this.openTool = call.index;
        this.producedText += name;
      }
      const json = call.function?.arguments;
      if (json) {
        this.producedText += json;
        out.push(
          anthropicSse({
            type: 'content_block_delta',
            index: block,
            delta: { type: 'input_json_delta', partial_json: json },
          }),
        );
      }
    }
    return out;
  }

  private finish(): string[] {
    this.ended = true;
    this.completed = true;
    // The upstream's usage split the Anthropic way (cache reads apart), else the estimate.
    const usage = this.reported
      ? anthropicUsageFromChat(this.reported)
      : { input_tokens: this.options.estimatedInputTokens, output_tokens: 0 };
    const delta = {
      type: 'message_delta',
      delta: { stop_reason: this.stopReason ?? 'end_turn', stop_sequence: null },
      usage,
    };
    return [...this.closeBlock(), anthropicSse(delta), anthropicSse({ type: 'message_stop' })];
  }

  push(item: OpenAiStreamItem): string[] {
    if (this.ended) return [];
    if (item === 'done') {
      if (!this.started || this.stopReason === null) return this.end();
      return this.finish();
    }
    if (isErrorItem(item)) {
      this.ended = true;
      return [
        anthropicStreamError(
          item.error.type ?? 'api_error',
          item.error.message ?? 'Upstream error.',
        ),
      ];
    }
    const out = this.start(item);
    if (item.usage) {
      this.reported = item.usage;
      this.usage = meteredFromOpenAi(item.usage);
    }
    const choice = item.choices[0];
    if (choice) {
      const text = choice.delta.content;
      if (text) {
        if (!this.blockOpen || this.openTool !== null) {
          this.openBlock({ type: 'text', text: '' }, out);
        }
        this.producedText += text;
        out.push(
          anthropicSse({
            type: 'content_block_delta',
            index: this.blockCount - 1,
            delta: { type: 'text_delta', text },
          }),
        );
      }
      if (choice.delta.tool_calls?.length) out.push(...this.toolCalls(choice.delta.tool_calls));
      if (choice.finish_reason) this.stopReason = stopReasonFromFinishReason(choice.finish_reason);
    }
    return out;
  }

  override end(): string[] {
    // Upstream closed without [DONE]: if it had finished a choice, close the message normally.
    if (!this.ended && this.started && this.stopReason !== null) return this.finish();
    return super.end();
  }
}

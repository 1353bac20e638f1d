/**
 * Stream translation: transforms over parsed upstream events that emit the exact SSE bytes the
 * client's vendor SDK expects (docs/providers.md#1-openai for chat/legacy chunks, #2-anthropic
 * for Anthropic events). Each transform also meters: it keeps the usage the upstream reported
 * and the text produced so far, so a stream cut short can still be billed.
 *
 * Tool calls stream in both directions: Anthropic's tool_use block start + `input_json_delta`
 * pieces ⇄ chat `delta.tool_calls` entries (the first with id and name, then argument pieces),
 * and the finish reasons `tool_use` ⇄ `tool_calls`. Argument pieces count as produced text.
 *
 * Every transform has the same three entry points:
 *  - `push(event)` for each upstream event → SSE strings to send,
 *  - `end()` when the upstream ended → closing SSE strings (an error event if it ended early),
 *  - `fail(type, message)` when the gateway gives up mid-stream → an error event.
 */
import {
  chatUsageFromAnthropic,
  finishReasonFromStopReason,
  stopReasonFromFinishReason,
} from './response.js';
import { anthropicSse, OPENAI_DONE, openAiSse } from './sse.js';
import type {
  AnthropicMessage,
  AnthropicStreamEvent,
  OpenAiChatChunk,
  OpenAiTextCompletion,
  OpenAiUsage,
} from './wire.js';

/** Token counts as the upstream reported them (null fields: not reported). */
export interface MeteredUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** What every stream transform exposes for billing. */
export interface StreamMeter {
  /** Usage the upstream reported, if it did. */
  readonly usage: MeteredUsage;
  /** Text produced so far (for a tokenizer count when the stream is cut short). */
  readonly producedText: string;
  /** True once the upstream signalled a normal end (finish reason / message_stop / [DONE]). */
  readonly completed: boolean;
}

export interface StreamTransform<In> extends StreamMeter {
  push(event: In): string[];
  end(): string[];
  fail(type: string, message: string): string[];
}

/** Output flavour of OpenAI-style streams. */
export type OpenAiStreamFormat = 'chat' | 'completion';

/** The error types of our API (spec ErrorType); a vendor's other types become upstream_error. */
const API_ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'insufficient_quota',
  'permission_error',
  'not_found_error',
  'conflict',
  'request_too_large',
  'unsupported_media_type',
  'rate_limit_error',
  'api_error',
  'upstream_error',
  'overloaded_error',
  'upstream_timeout',
]);

/** Maps an upstream's error type onto ours (e.g. OpenAI `server_error` → `upstream_error`). */
export function apiErrorType(type: string | undefined): string {
  return type && API_ERROR_TYPES.has(type) ? type : 'upstream_error';
}

/** OpenAI-style in-stream error (the SDK throws on a `data:` JSON with an `error` key). */
export function openAiStreamError(type: string, message: string): string {
  return openAiSse({ error: { message, type: apiErrorType(type), code: null, param: null } });
}

/** Anthropic-style in-stream error event. */
export function anthropicStreamError(type: string, message: string): string {
  return anthropicSse({ type: 'error', error: { type: apiErrorType(type), message } });
}

/**
 * The ending every transform shares: after its last event it emits nothing more, and an upstream
 * that closes early or a gateway that gives up yields exactly one error event in the client's format.
 */
export abstract class TerminableStream {
  protected ended = false;
  /** Writes an in-stream error event in the format the client reads. */
  protected abstract readonly errorEvent: (type: string, message: string) => string;

  end(): string[] {
    return this.fail('upstream_error', 'The upstream stream ended before completion.');
  }

  fail(type: string, message: string): string[] {
    if (this.ended) return [];
    this.ended = true;
    return [this.errorEvent(type, message)];
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

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
  usage: MeteredUsage = { inputTokens: null, outputTokens: null };
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
        this.usage.inputTokens = chatUsageFromAnthropic(event.message.usage ?? {}).prompt_tokens;
        if (this.options.format === 'completion') return [];
        return [this.chunk({ role: 'assistant', content: '' }, null)];
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use' && this.options.format === 'chat') {
          const index = this.toolIndex.size;
          this.toolIndex.set(event.index, index);
          const name = block.name ?? '';
          this.producedText += name;
          const call = { index, id: block.id ?? '', type: 'function' as const };
          return [
            this.chunk({ tool_calls: [{ ...call, function: { name, arguments: '' } }] }, null),
          ];
        }
        const text = block.type === 'text' ? (block.text ?? '') : '';
        if (text === '') return [];
        this.producedText += text;
        return [this.chunk({ content: text }, null)];
      }
      case 'content_block_delta': {
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
      case 'message_delta': {
        this.finishReason = finishReasonFromStopReason(event.delta.stop_reason);
        this.usage.outputTokens = event.usage.output_tokens;
        if (event.usage.input_tokens != null) {
          this.usage.inputTokens = chatUsageFromAnthropic({
            ...event.usage,
            input_tokens: event.usage.input_tokens,
          }).prompt_tokens;
        }
        return [this.chunk({}, this.finishReason)];
      }
      case 'message_stop': {
        this.completed = true;
        this.ended = true;
        const out: string[] = [];
        if (this.finishReason === null) out.push(this.chunk({}, 'stop'));
        if (this.options.includeUsage) {
          const prompt = this.usage.inputTokens ?? 0;
          const completion = this.usage.outputTokens ?? 0;
          out.push(
            this.usageChunk({
              prompt_tokens: prompt,
              completion_tokens: completion,
              total_tokens: prompt + completion,
            }),
          );
        }
        out.push(OPENAI_DONE);
        return out;
      }
      case 'error':
        this.ended = true;
        return [openAiStreamError(event.error.type, event.error.message)];
      default:
        // ping, content_block_stop and block types with no chat equivalent.
        return [];
    }
  }
}

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
  usage: MeteredUsage = { inputTokens: null, outputTokens: null };
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
    const input = this.usage.inputTokens ?? this.options.estimatedInputTokens;
    const delta = {
      type: 'message_delta',
      delta: { stop_reason: this.stopReason ?? 'end_turn', stop_sequence: null },
      usage: { input_tokens: input, output_tokens: this.usage.outputTokens ?? 0 },
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
      this.usage.inputTokens = item.usage.prompt_tokens;
      this.usage.outputTokens = item.usage.completion_tokens;
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

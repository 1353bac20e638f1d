/**
 * Same-format streams (chat → OpenAI, legacy → OpenAI, messages → Anthropic): the upstream's
 * events are forwarded as received. Only the few events that carry usage are parsed; content
 * events are kept as raw strings, needed only if the stream is cut short and the produced text must
 * be counted (PROVIDERS.md §1, §2 Streaming). Every {@link FOLD_EVERY} events the raw strings are
 * folded into the text they carry: a short stream never parses its content, and a long one holds
 * its text (a few bytes a token) rather than every event's JSON (~180 bytes a token).
 */
import type { SseEvent } from './sse.js';
import type { MeteredUsage, OpenAiStreamFormat, StreamTransform } from './stream.js';
import { anthropicStreamError, openAiStreamError, TerminableStream } from './stream.js';

// A usage object (not `"usage": null`) somewhere in the chunk.
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

/** Raw content events kept before they are folded into text. */
const FOLD_EVERY = 32;

/** Raw event payloads, folded into the text they carry in batches. */
class ProducedText {
  private text = '';
  private raw: string[] = [];

  constructor(private readonly textOf: (data: string) => string) {}

  add(data: string): void {
    this.raw.push(data);
    if (this.raw.length >= FOLD_EVERY) this.fold();
  }

  get value(): string {
    this.fold();
    return this.text;
  }

  private fold(): void {
    for (const data of this.raw) {
      try {
        this.text += this.textOf(data);
      } catch {
        // Not JSON (a comment or a vendor extension): contributes no text.
      }
    }
    this.raw = [];
  }
}

/**
 * Forwards an OpenAI chat or legacy stream. The gateway always asks upstream for usage; when the
 * client did not, the final usage-only chunk is dropped so the client sees what it asked for.
 *
 * @example
 * const t = new OpenAiPassthroughStream({ includeUsage: false, format: 'chat' });
 * for (const ev of parser.push(text)) for (const out of t.push(ev)) write(out);
 */
export class OpenAiPassthroughStream extends TerminableStream implements StreamTransform<SseEvent> {
  protected readonly errorEvent = openAiStreamError;
  usage: MeteredUsage = { inputTokens: null, outputTokens: null };
  completed = false;
  private readonly produced: ProducedText;

  constructor(private readonly options: { includeUsage: boolean; format: OpenAiStreamFormat }) {
    super();
    this.produced = new ProducedText((data) => {
      const chunk = JSON.parse(data) as {
        choices?: Array<{
          text?: string;
          delta?: {
            content?: string | null;
            tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
          };
        }>;
      };
      const choice = chunk.choices?.[0];
      let text = (options.format === 'completion' ? choice?.text : choice?.delta?.content) ?? '';
      // Tool-call names and argument pieces are output too.
      for (const call of choice?.delta?.tool_calls ?? []) {
        text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
      }
      return text;
    });
  }

  push(event: SseEvent): string[] {
    if (this.ended) return [];
    const data = event.data;
    if (data === '[DONE]') {
      this.completed = true;
      this.ended = true;
      return [event.raw];
    }
    if (USAGE_OBJECT.test(data)) {
      const chunk = JSON.parse(data) as {
        choices?: unknown[];
        usage?: { prompt_tokens?: number; completion_tokens?: number };
      };
      if (chunk.usage) {
        this.usage = {
          inputTokens: chunk.usage.prompt_tokens ?? null,
          outputTokens: chunk.usage.completion_tokens ?? null,
        };
      }
      if (!this.options.includeUsage && (chunk.choices?.length ?? 0) === 0) return [];
    }
    this.produced.add(data);
    return [event.raw];
  }

  get producedText(): string {
    return this.produced.value;
  }
}

/** Forwards an Anthropic event stream, reading usage from message_start and message_delta. */
export class AnthropicPassthroughStream
  extends TerminableStream
  implements StreamTransform<SseEvent>
{
  protected readonly errorEvent = anthropicStreamError;
  usage: MeteredUsage = { inputTokens: null, outputTokens: null };
  completed = false;
  private readonly produced = new ProducedText((data) => {
    const delta = JSON.parse(data) as {
      delta?: { type?: string; text?: string; partial_json?: string };
    };
    if (delta.delta?.type === 'text_delta') return delta.delta.text ?? '';
    if (delta.delta?.type === 'input_json_delta') return delta.delta.partial_json ?? '';
    return '';
  });

  push(event: SseEvent): string[] {
    if (this.ended) return [];
    switch (event.event) {
      case 'content_block_delta':
        this.produced.add(event.data);
        break;
      case 'message_start': {
        const start = JSON.parse(event.data) as {
          message?: { usage?: { input_tokens?: number; output_tokens?: number } };
        };
        const usage = start.message?.usage;
        if (usage) this.usage.inputTokens = usage.input_tokens ?? null;
        break;
      }
      case 'message_delta': {
        const delta = JSON.parse(event.data) as {
          usage?: { input_tokens?: number | null; output_tokens?: number };
        };
        if (delta.usage?.output_tokens != null) this.usage.outputTokens = delta.usage.output_tokens;
        if (delta.usage?.input_tokens != null) this.usage.inputTokens = delta.usage.input_tokens;
        break;
      }
      case 'message_stop':
        this.completed = true;
        this.ended = true;
        break;
      case 'error':
        this.ended = true;
        break;
    }
    return [event.raw];
  }

  get producedText(): string {
    return this.produced.value;
  }
}

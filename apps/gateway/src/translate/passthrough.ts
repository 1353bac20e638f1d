/**
 * Same-format streams (chat → OpenAI, legacy → OpenAI, messages → Anthropic): the upstream's
 * events are forwarded as received. Each content event's text is read as it passes, so a stream cut
 * short can be billed from what it produced (docs/providers.md#1-openai, #2-anthropic).
 *
 * The text is copied out of each event rather than the event kept for later: an event string held
 * for seconds outlives two scavenges and is promoted to the old generation, which under thousands
 * of held streams is most of the gateway's heap growth.
 */
import type { SseEvent } from './sse.js';
import {
  type MeteredUsage,
  NO_USAGE,
  type OpenAiStreamFormat,
  type StreamTransform,
  TerminableStream,
} from './stream-base.js';
import { anthropicStreamError, openAiStreamError } from './stream-errors.js';
import { mergeAnthropicUsage, meteredFromAnthropic, meteredFromOpenAi } from './usage.js';
import type { AnthropicUsage, OpenAiUsage } from './wire.js';

// A usage object (not `"usage": null`) somewhere in the chunk.
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
// An upstream's in-stream error: `data: {"error": {...}}` (docs/providers.md#1-openai).
const ERROR_CHUNK = /^\s*\{\s*"error"\s*:\s*\{/;

/** The text produced so far: each content event's text, appended as the event passes. */
class ProducedText {
  value = '';

  constructor(private readonly textOf: (data: string) => string) {}

  add(data: string): void {
    try {
      this.value += this.textOf(data);
    } catch {
      // Not JSON (a comment or a vendor extension): contributes no text.
    }
  }
}

/** The text of a chat or legacy chunk, from its parsed JSON. */
function parsedOpenAiText(data: string, format: OpenAiStreamFormat): string {
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
  let text = (format === 'completion' ? choice?.text : choice?.delta?.content) ?? '';
  // Tool-call names and argument pieces are output too.
  for (const call of choice?.delta?.tool_calls ?? []) {
    text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
  }
  return text;
}

/** The text of an Anthropic content_block_delta, from its parsed JSON. */
function parsedAnthropicText(data: string): string {
  const delta = JSON.parse(data) as {
    delta?: { type?: string; text?: string; partial_json?: string };
  };
  if (delta.delta?.type === 'text_delta') return delta.delta.text ?? '';
  if (delta.delta?.type === 'input_json_delta') return delta.delta.partial_json ?? '';
  return '';
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
  usage: MeteredUsage = NO_USAGE;
  completed = false;
  private readonly produced: ProducedText;

  constructor(private readonly options: { includeUsage: boolean; format: OpenAiStreamFormat }) {
    super();
    this.produced = new ProducedText((data) => parsedOpenAiText(data, options.format));
  }

  push(event: SseEvent): string[] {
    if (this.ended) return [];
    const data = event.data;
    if (data === '[DONE]') {
      this.completed = true;
      this.ended = true;
      return [event.raw];
    }
    if (ERROR_CHUNK.test(data)) return this.upstreamError(data);
    if (USAGE_OBJECT.test(data)) {
      const chunk = JSON.parse(data) as { choices?: unknown[]; usage?: Partial<OpenAiUsage> };
      if (chunk.usage) this.usage = meteredFromOpenAi(chunk.usage);
      if (!this.options.includeUsage && (chunk.choices?.length ?? 0) === 0) return [];
    }
    this.produced.add(data);
    return [event.raw];
  }

  get producedText(): string {
    return this.produced.value;
  }

  /**
   * The upstream's error ends the stream: it is the one error event the client gets, its type
   * mapped onto ours (OpenAI's `server_error` → `upstream_error`), so `end()` adds no second one.
   */
  private upstreamError(data: string): string[] {
    const { error } = JSON.parse(data) as { error: { type?: string; message?: string } };
    return this.fail(error.type ?? 'upstream_error', error.message ?? 'Upstream error.');
  }
}

/** Forwards an Anthropic event stream, reading usage from message_start and message_delta. */
export class AnthropicPassthroughStream
  extends TerminableStream
  implements StreamTransform<SseEvent>
{
  protected readonly errorEvent = anthropicStreamError;
  usage: MeteredUsage = NO_USAGE;
  completed = false;
  private readonly produced = new ProducedText(parsedAnthropicText);
  /** The upstream's usage figures so far (message_start's, then message_delta's over them). */
  private reported: Partial<AnthropicUsage> = {};

  push(event: SseEvent): string[] {
    if (this.ended) return [];
    switch (event.event) {
      case 'content_block_delta':
        this.produced.add(event.data);
        break;
      case 'message_start': {
        const start = JSON.parse(event.data) as { message?: { usage?: Partial<AnthropicUsage> } };
        // message_start's output_tokens is a placeholder; the final count comes in message_delta.
        const { output_tokens: _placeholder, ...usage } = start.message?.usage ?? {};
        this.meter(usage);
        break;
      }
      case 'message_delta': {
        const delta = JSON.parse(event.data) as { usage?: Partial<AnthropicUsage> };
        this.meter(delta.usage);
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

  private meter(usage: Partial<AnthropicUsage> | null | undefined): void {
    this.reported = mergeAnthropicUsage(this.reported, usage);
    this.usage = meteredFromAnthropic(this.reported);
  }

  get producedText(): string {
    return this.produced.value;
  }
}

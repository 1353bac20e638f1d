/**
 * Same-format streams (chat → OpenAI, legacy → OpenAI, messages → Anthropic): the upstream's
 * events are forwarded as received. Only the few events that carry usage are parsed. The text a
 * content event carries is picked out of its JSON without parsing it (see {@link onlyStringValue}),
 * so a stream cut short can be billed from what it produced (docs/providers.md#1-openai, #2-anthropic).
 *
 * The text is copied out as each event passes, rather than the event kept for later: an event
 * string held for seconds outlives two scavenges and is promoted, and under 1,000 held streams
 * those promoted event strings were most of the gateway's heap growth (PERFORMANCE.md round 5).
 */
import type { SseEvent } from './sse.js';
import type { MeteredUsage, OpenAiStreamFormat, StreamTransform } from './stream.js';
import { anthropicStreamError, openAiStreamError, TerminableStream } from './stream.js';

// A usage object (not `"usage": null`) somewhere in the chunk.
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The value of the one `"key":` in a JSON text when it is a string, as a fresh string (never a
 * slice, which would keep the whole event alive); '' when the key is absent or null; undefined
 * when the key occurs more than once or has another kind of value (the caller parses instead).
 * A key inside a string value cannot match: its quotes are escaped there.
 *
 * @example
 * onlyStringValue('{"choices":[{"delta":{"content":"Hi"}}]}', '"content":'); // 'Hi'
 */
export function onlyStringValue(json: string, keyPattern: string): string | undefined {
  const at = json.indexOf(keyPattern);
  if (at === -1) return '';
  let start = at + keyPattern.length;
  if (json.indexOf(keyPattern, start) !== -1) return undefined;
  while (start < json.length && json.charCodeAt(start) <= 32) start++;
  if (json.startsWith('null', start)) return '';
  if (json.charCodeAt(start) !== QUOTE) return undefined;
  let end = start + 1;
  for (;;) {
    end = json.indexOf('"', end);
    if (end === -1) return undefined;
    let backslashes = 0;
    while (json.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) break;
    end++;
  }
  // Parsing the literal alone unescapes it and copies it out of the event.
  return JSON.parse(json.slice(start, end + 1)) as string;
}

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
  usage: MeteredUsage = { inputTokens: null, outputTokens: null };
  completed = false;
  private readonly produced: ProducedText;

  constructor(private readonly options: { includeUsage: boolean; format: OpenAiStreamFormat }) {
    super();
    const key = options.format === 'completion' ? '"text":' : '"content":';
    this.produced = new ProducedText((data) => {
      // Tool-call chunks carry names and argument pieces in several fields: parse those.
      const quick = data.includes('"tool_calls"') ? undefined : onlyStringValue(data, key);
      return quick ?? parsedOpenAiText(data, options.format);
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
    let quick: string | undefined;
    if (data.includes('"text_delta"')) quick = onlyStringValue(data, '"text":');
    else if (data.includes('"input_json_delta"')) quick = onlyStringValue(data, '"partial_json":');
    return quick ?? parsedAnthropicText(data);
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

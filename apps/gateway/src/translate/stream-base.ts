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

/**
 * Token counts as the upstream reported them (null input or output: not reported), split as
 * translate/usage.ts normalises them: `inputTokens` excludes cache reads and writes.
 */
export interface MeteredUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
}

/** Nothing reported yet. */
export const NO_USAGE: MeteredUsage = Object.freeze({
  inputTokens: null,
  outputTokens: null,
  cacheReadTokens: 0,
  cacheWrite5mTokens: 0,
  cacheWrite1hTokens: 0,
});

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

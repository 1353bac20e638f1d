/**
 * Server-sent events as the gateway writes them: the exact bytes the vendor SDKs parse (`data: …\n\n`
 * for OpenAI, `event: …\ndata: …\n\n` for Anthropic). Reading them is `@modelgate/core/sse`'s job,
 * the one parser every package uses; `raw: true` keeps each event's bytes for pass-through.
 */
export type { RawSseEvent as SseEvent } from '@modelgate/core/sse';

/** `data: <json>\n\n` — the OpenAI framing (no `event:` line). */
export function openAiSse(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** The terminator of OpenAI streams. */
export const OPENAI_DONE = 'data: [DONE]\n\n';

/** `event: <type>\ndata: <json>\n\n` — the Anthropic framing, where `data.type` repeats the name. */
export function anthropicSse(payload: { type: string; [field: string]: unknown }): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

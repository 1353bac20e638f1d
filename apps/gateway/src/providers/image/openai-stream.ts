/**
 * A streamed OpenAI image edit (docs/providers.md#12-openai-images, "Streaming"): server-sent
 * events `image_edit.partial_image` and `image_edit.completed`, read with the one SSE parser
 * (`@modelgate/core/sse`) and handed on as typed events with their image decoded.
 */
import { SseParser } from '@modelgate/core/sse';
import { zImagesUsage } from '@modelgate/core/zod';
import { classifyNetworkError } from '../text/http.js';
import { UpstreamError } from '../text/types.js';
import { badAnswer, imageFromBase64 } from './http.js';
import type { ImageStreamEvent } from './types.js';

function toEvent(data: string, provider: string): ImageStreamEvent | null {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(data) as Record<string, unknown>;
  } catch {
    throw badAnswer(provider, 'an event that is not JSON');
  }
  if (event.error && typeof event.error === 'object') {
    const message = String((event.error as { message?: unknown }).message ?? 'stream error');
    throw new UpstreamError('status', message, 502);
  }
  if (typeof event.b64_json !== 'string') return null;
  const image = imageFromBase64(event.b64_json, provider);
  if (event.type === 'image_edit.partial_image') return { kind: 'partial', event, image };
  if (event.type === 'image_edit.completed') {
    const usage = zImagesUsage.safeParse(event.usage);
    return usage.success
      ? { kind: 'completed', event, image, usage: usage.data }
      : { kind: 'completed', event, image };
  }
  return null;
}

/**
 * @example
 * for await (const event of readImageEvents(body, 'openai')) if (event.kind === 'completed') save(event.image);
 */
export async function* readImageEvents(
  body: AsyncIterable<Uint8Array>,
  provider: string,
): AsyncGenerator<ImageStreamEvent> {
  const pending: string[] = [];
  const parser = new SseParser({ onEvent: (event) => pending.push(event.data) });
  try {
    for await (const chunk of body) {
      parser.feedBytes(chunk);
      while (pending.length > 0) {
        const event = toEvent(pending.shift()!, provider);
        if (event) yield event;
      }
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw classifyNetworkError(error, provider);
  }
  parser.end();
  for (const data of pending) {
    const event = toEvent(data, provider);
    if (event) yield event;
  }
}

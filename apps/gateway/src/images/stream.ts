/**
 * A streamed edit's answer (`stream: true`, gpt-image-1): the upstream's `image_edit.*` events
 * written on as server-sent events in OpenAI's framing (`event: <type>` + `data: <json>`), pulled
 * one at a time as the client reads. The charge follows what the client was sent: each
 * `image_edit.completed` written is one image charged, at the size and quality it reports;
 * a stream that ends (or is left) before any is refunded.
 */
import type { ImagesUsage } from '@modelgate/core';
import { asApiError, errorBody } from '../errors/body.js';
import type { ImageStreamEvent } from '../providers/image/types.js';
import { clientFailure } from '../text/failure.js';
import { type ImageCharge, imageUsage } from './charge.js';
import { chargedUnits } from './price.js';
import type { ImageRequest } from './request.js';

const encoder = new TextEncoder();

function sse(event: Record<string, unknown>): Uint8Array {
  return encoder.encode(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** The usage of several images, added up (the usage record carries the sum). */
function addUsage(total: ImagesUsage | undefined, usage: ImagesUsage | undefined) {
  if (!usage) return total;
  if (!total) return { ...usage };
  return {
    input_tokens: total.input_tokens + usage.input_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
  };
}

/**
 * @param abort aborted when the client leaves: the upstream stream is abandoned.
 * @example
 * return new Response(streamedEdit(events, request, charge, ctx.abort), { headers });
 */
export function streamedEdit(
  events: AsyncIterable<ImageStreamEvent>,
  request: ImageRequest,
  charge: ImageCharge,
  abort: AbortController,
): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  let units = 0;
  let images = 0;
  let usage: ImagesUsage | undefined;
  const finish = () => {
    if (images === 0) charge.refund();
    else charge.settle(units, imageUsage(usage));
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        const { event } = next.value;
        controller.enqueue(sse(event));
        if (next.value.kind === 'completed' && images < request.n) {
          images += 1;
          const made = {
            count: 1,
            size: String(event.size ?? ''),
            quality: String(event.quality ?? ''),
          };
          units += chargedUnits(request, made);
          usage = addUsage(usage, next.value.usage);
        }
      } catch (err) {
        // After the head is sent an error can only travel in-band, as OpenAI sends one.
        const failure = asApiError(clientFailure(err, false));
        const body = errorBody(failure, '/v1/images/edits') as Record<string, unknown>;
        controller.enqueue(sse({ type: 'error', ...body }));
        finish();
        controller.close();
      }
    },
    cancel() {
      abort.abort(new DOMException('The client closed the request.', 'AbortError'));
      void iterator.return?.();
      finish();
    },
  });
}

/**
 * Responses → OpenAI's own `/v1/responses`: the upstream's events are forwarded as received, read
 * as they pass for billing (usage from `response.completed` / `response.incomplete`, the text of
 * the deltas for a stream cut short). The upstream's `response.failed` is the one error event the
 * client gets; when the gateway gives up, or the upstream ends early, it writes one itself,
 * numbered after the last event relayed.
 */
import type { ResponseUsage as ModelResponseUsage } from '@modelgate/core';
import type { SseEvent } from '../sse.js';
import {
  type MeteredUsage,
  NO_USAGE,
  type StreamTransform,
  TerminableStream,
} from '../stream-base.js';
import { apiErrorType } from '../stream-errors.js';
import { meteredFromResponses } from '../usage.js';

interface EventLike {
  type?: string;
  sequence_number?: number;
  delta?: unknown;
  response?: { usage?: Partial<ModelResponseUsage> | null };
  code?: string | null;
  message?: string;
}

const DELTAS = new Set(['response.output_text.delta', 'response.function_call_arguments.delta']);
const FINAL = new Set(['response.completed', 'response.incomplete']);

export class ResponsesPassthroughStream
  extends TerminableStream
  implements StreamTransform<SseEvent>
{
  usage: MeteredUsage = NO_USAGE;
  completed = false;
  private produced = '';
  private nextSequence = 0;

  protected readonly errorEvent = (type: string, message: string): string => {
    const event = {
      type: 'response.failed',
      sequence_number: this.nextSequence,
      response: {
        object: 'response',
        status: 'failed',
        error: { code: apiErrorType(type), message },
      },
    };
    return `event: response.failed\ndata: ${JSON.stringify(event)}\n\n`;
  };

  get producedText(): string {
    return this.produced;
  }

  push(event: SseEvent): string[] {
    if (this.ended) return [];
    let data: EventLike;
    try {
      data = JSON.parse(event.data) as EventLike;
    } catch {
      return [event.raw];
    }
    if (typeof data.sequence_number === 'number') this.nextSequence = data.sequence_number + 1;
    if (data.type === 'error') {
      return this.fail(data.code ?? 'upstream_error', data.message ?? 'Upstream error.');
    }
    if (data.type && DELTAS.has(data.type) && typeof data.delta === 'string') {
      this.produced += data.delta;
    }
    if (data.response?.usage) this.usage = meteredFromResponses(data.response.usage);
    if (data.type && FINAL.has(data.type)) {
      this.completed = true;
      this.ended = true;
    } else if (data.type === 'response.failed') {
      this.ended = true;
    }
    return [event.raw];
  }
}

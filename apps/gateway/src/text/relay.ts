/**
 * Stage 4b: relay a stream. Each upstream chunk is parsed into events, translated into the client's
 * format by the plan's pipe and written to the {@link StreamSink} from the upstream connection's
 * data callback, so a held stream allocates nothing while it waits for the next chunk. The stream
 * is settled once, however it ends: normally, cut short by the upstream, or abandoned by the client
 * (the upstream request is aborted then), billing what was produced.
 */

import { SseParser } from '@modelgate/core/sse';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { classifyNetworkError } from '../providers/text/http.js';
import type { Router } from '../routing/router.js';
import type { SseEvent } from '../translate/sse.js';
import type { StreamSink } from '../translate/stream-sink.js';
import type { TextAnswer } from './answer.js';
import type { Charge } from './charge.js';
import { OVERHEAD_HEADER, type OverheadClock } from './overhead.js';
import type { StreamPipe } from './plan.js';
import type { TextRequest } from './request.js';
import { droppedHeader } from './respond.js';
import { countInputTokens, countTokens } from './tokens.js';
import { countUpstreamError, type UpstreamStream } from './upstream.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
} as const;

export interface RelayDeps {
  router: Router;
  log: Logger;
  metrics?: StandardMetrics;
}

/**
 * @param abort the request's controller: the client going away aborts it, which stops the upstream.
 * @example
 * return relayStream(stream, { request, charge, abort, clock }, deps);
 */
export function relayStream(
  stream: UpstreamStream,
  ctx: {
    request: TextRequest;
    charge: Charge;
    abort: AbortController;
    clock: OverheadClock;
  },
  deps: RelayDeps,
): TextAnswer {
  const pipe = stream.plan.stream(ctx.charge.estimatedInput);
  const relay = new StreamRelay(stream, pipe, ctx.request, ctx.charge, ctx.abort, deps);
  const headers = {
    ...SSE_HEADERS,
    [OVERHEAD_HEADER]: ctx.clock.header(),
    ...ctx.charge.tokens.headers,
    ...droppedHeader(stream.plan),
  };
  return { kind: 'stream', headers, write: (sink) => relay.run(sink) };
}

class StreamRelay {
  /** Events parsed from the chunk being translated. */
  private readonly events: SseEvent[] = [];
  private readonly parser = new SseParser({ raw: true, onEvent: (e) => this.events.push(e) });
  private settled = false;

  constructor(
    private readonly stream: UpstreamStream,
    private readonly pipe: StreamPipe,
    private readonly request: TextRequest,
    private readonly charge: Charge,
    private readonly abort: AbortController,
    private readonly deps: RelayDeps,
  ) {
    // Whoever stops the request (the client leaving, even before the head is out, or a failed
    // relay) aborts it: the upstream body is destroyed and what was produced is billed.
    abort.signal.addEventListener(
      'abort',
      () => {
        stream.response.body.destroy();
        void this.settle();
      },
      { once: true },
    );
  }

  run(sink: StreamSink): void {
    const body = this.stream.response.body;
    const pipe = this.pipe;
    sink.onClientGone(() => this.abort.abort());
    sink.onDrain(() => body.resume());
    body.read({
      chunk: (data) =>
        !this.aborted && this.guard(sink, () => sink.write(this.translate(pipe, data))),
      end: () => {
        if (!this.aborted) this.guard(sink, () => this.finish(sink, pipe, () => pipe.end()));
      },
      fail: (err) => {
        // The client left: the abort listener settles.
        if (!this.aborted) this.guard(sink, () => this.upstreamFailed(sink, pipe, err));
      },
    });
  }

  private get aborted(): boolean {
    return this.abort.signal.aborted;
  }

  /** The client-format text for one upstream chunk (or, without one, for what the parser held). */
  private translate(pipe: StreamPipe, chunk?: Uint8Array): string {
    if (chunk) this.parser.feedBytes(chunk);
    else this.parser.end();
    let out = '';
    for (const event of this.events) for (const part of pipe.feed(event)) out += part;
    this.events.length = 0;
    return out;
  }

  /**
   * The last events: what the parser still holds, then the pipe's closing events (`tail` runs after
   * the parser's rest has gone through the pipe). The charge is journaled before the client sees
   * the stream end (apps/gateway/LEDGER.md).
   */
  private finish(sink: StreamSink, pipe: StreamPipe, tail: () => string[]): void {
    const rest = this.translate(pipe);
    sink.write(rest + tail().join(''));
    this.settle()
      .catch((err: unknown) =>
        this.deps.log.error('stream settlement failed', { request_id: this.charge.requestId, err }),
      )
      .finally(() => sink.end());
  }

  private upstreamFailed(sink: StreamSink, pipe: StreamPipe, err: unknown): void {
    const { deployment } = this.stream;
    const failure = classifyNetworkError(err, deployment.provider.name);
    // No failover after the first byte, but a deployment that drops streams cools down.
    this.deps.router.breaker.recordFailure(deployment.id);
    countUpstreamError(this.deps.metrics, deployment, failure);
    this.deps.log.warn('upstream stream failed', {
      request_id: this.charge.requestId,
      error: failure.message,
    });
    const type = failure.kind === 'timeout' ? 'upstream_timeout' : 'upstream_error';
    this.finish(sink, pipe, () => pipe.fail(type, 'The upstream stream failed before completion.'));
  }

  /** Runs one step of the relay; a step that throws stops the request and cuts the connection. */
  private guard(sink: StreamSink, step: () => unknown): boolean {
    try {
      return step() !== false;
    } catch (err) {
      this.deps.log.error('stream relay failed', { request_id: this.charge.requestId, err });
      this.abort.abort(); // its listener destroys the upstream body and settles
      sink.destroy();
      return false;
    }
  }

  /** Bills what was produced: the upstream's usage when it reported it, else a count. */
  private async settle(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const pipe = this.pipe;
    const reported = pipe.usage;
    let output = reported.outputTokens;
    if (!pipe.completed || output === null) output = await countTokens(pipe.producedText);
    const input = reported.inputTokens ?? (await countInputTokens(this.request));
    this.charge.settle({ ...reported, inputTokens: input, outputTokens: output });
  }
}

/**
 * The outermost concern: in-flight count, one JSON access-log line and the HTTP metrics per
 * request, and x-modelgate-overhead-ms on answers whose route did not set its own.
 */
import type { Logger } from '../../observability/logger.js';
import type { StandardMetrics } from '../../observability/metrics.js';
import { OVERHEAD_HEADER } from '../../text/overhead.js';
import type { Stage } from '../exchange.js';

/**
 * @example const stages = [requestIdStage(), observeStage(services.log, services.stdMetrics), …];
 */
export function observeStage(log: Logger, metrics: StandardMetrics): Stage {
  return {
    name: 'observe',
    scope: 'every',
    enter() {
      metrics.inFlight.inc();
      return undefined;
    },
    leave(x) {
      metrics.inFlight.dec();
      const seconds = (performance.now() - x.startedAt) / 1000;
      // Routes that call upstream set their own overhead (excluding upstream time); for every
      // other answer the whole time is gateway time.
      x.fallbackHeaders[OVERHEAD_HEADER] = (seconds * 1000).toFixed(2);
      // Metrics and the log line wait until the answer has been written (setImmediate runs after
      // the writes that follow this): they are bookkeeping, and on a one-at-a-time client they
      // were ≈ 15 % of the gateway's own latency.
      setImmediate(recordRequest, metrics, log, {
        request_id: x.requestId,
        method: x.method,
        route: x.route,
        path: x.path,
        status: x.status,
        seconds,
        key_id: x.key?.id ?? null,
      });
    },
  };
}

/** One answered request, as the access log and the HTTP metrics see it. */
export interface RequestRecord {
  request_id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  seconds: number;
  key_id: number | null;
}

/**
 * Counts an answered request and writes its access-log line. Called from setImmediate, after the
 * answer has been written: it is bookkeeping, not part of the answer.
 */
export function recordRequest(metrics: StandardMetrics, log: Logger, r: RequestRecord): void {
  metrics.httpRequests.inc({ route: r.route, method: r.method, status: r.status });
  metrics.httpDuration.observe({ route: r.route }, r.seconds);
  const level = r.status >= 500 ? 'error' : 'info';
  if (log.isLevelEnabled(level)) {
    log[level]('request', {
      request_id: r.request_id,
      method: r.method,
      route: r.route,
      path: r.path,
      status: r.status,
      duration_ms: Math.round(r.seconds * 1e4) / 10,
      key_id: r.key_id,
    });
  }
}

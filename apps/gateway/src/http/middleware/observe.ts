/**
 * The outermost middleware: request id, in-flight count, one JSON access-log line and the HTTP metrics
 * per request. It never sees an exception: app.onError has already rendered errors into c.res.
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../../observability/logger.js';
import type { StandardMetrics } from '../../observability/metrics.js';
import type { AppEnv } from '../env.js';
import { pickRequestId } from './request-id.js';

export function observe(log: Logger, metrics: StandardMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    const requestId = pickRequestId(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    c.set('startedAt', startedAt);
    c.header('x-request-id', requestId);
    metrics.inFlight.inc();
    try {
      await next();
    } finally {
      metrics.inFlight.dec();
    }
    // A handler that returned its own Response (e.g. a stream) may not carry our header yet.
    if (c.res.headers.get('x-request-id') !== requestId) {
      try {
        c.res.headers.set('x-request-id', requestId);
      } catch {
        const res = new Response(c.res.body, c.res);
        res.headers.set('x-request-id', requestId);
        c.res = res;
      }
    }
    // Routes that call upstream set their own overhead (excluding upstream time); for everything
    // else the whole time is gateway time.
    if (!c.res.headers.has('x-modelgate-overhead-ms')) {
      try {
        c.res.headers.set('x-modelgate-overhead-ms', (performance.now() - startedAt).toFixed(1));
      } catch {
        // immutable headers (a proxied Response): leave it out rather than copy the body
      }
    }
    const status = c.res.status;
    // The matched route pattern, not the raw path: bounded label cardinality.
    const route = c.get('unmatched') ? 'unmatched' : routePath(c, -1) || 'unmatched';
    const seconds = (performance.now() - startedAt) / 1000;
    // Metrics and the log line wait until the response has been written (the adapter writes it in
    // the microtasks after this middleware returns; setImmediate runs after those): they are
    // bookkeeping, and on a one-at-a-time client they were ≈ 15 % of the gateway's own latency.
    setImmediate(recordRequest, metrics, log, {
      request_id: requestId,
      method: c.req.method,
      route,
      path: c.req.path,
      status,
      seconds,
      key_id: c.get('key')?.id ?? null,
    });
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

/**
 * CORS for /v1/*: the policy, the headers of an answer and the answer to a preflight, as plain
 * functions; {@link corsStage} puts them in the pipeline.
 */
import type { cors as honoCors } from 'hono/cors';
import type { EarlyAnswer, Stage } from '../exchange.js';

export type CorsOptions = NonNullable<Parameters<typeof honoCors>[0]> & {
  origin: string | string[];
};

/**
 * The API's CORS policy for the configured origins (`MODELGATE_CORS_ORIGINS`).
 * @example corsStage(apiCorsOptions('*'));
 */
export function apiCorsOptions(origin: string | string[]): CorsOptions {
  return {
    origin,
    // Echo whatever headers the preflight asks for: the vendors' SDKs add their own in a browser
    // (x-stainless-*, anthropic-dangerous-direct-browser-access), and with no cookies in play an
    // extra header grants nothing the key does not.
    allowHeaders: [],
    exposeHeaders: [
      'x-request-id',
      'x-modelgate-overhead-ms',
      'x-modelgate-dropped-params',
      'retry-after',
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
      'x-ratelimit-limit-tokens',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-reset-tokens',
    ],
    maxAge: 600,
  };
}

/**
 * The CORS headers of an answer (not a preflight) to a request from `origin`.
 * @example
 * const corsFor = corsResponseHeaders({ origin: '*', exposeHeaders: ['x-request-id'] });
 * corsFor('https://app.example'); // { 'access-control-allow-origin': '*', … }
 */
export function corsResponseHeaders(
  options: CorsOptions,
): (origin: string | undefined) => Record<string, string> {
  const { origin } = options;
  const allowOrigin = (requested: string): string | null => {
    if (origin === '*') return '*';
    if (typeof origin === 'string') return requested === origin ? requested : null;
    return origin.includes(requested) ? requested : null;
  };
  const expose = options.exposeHeaders?.length ? options.exposeHeaders.join(',') : null;
  return (requested) => {
    const headers: Record<string, string> = {};
    const allowed = allowOrigin(requested ?? '');
    if (allowed) headers['access-control-allow-origin'] = allowed;
    if (options.credentials) headers['access-control-allow-credentials'] = 'true';
    if (expose) headers['access-control-expose-headers'] = expose;
    if (origin !== '*') headers.vary = 'Origin';
    return headers;
  };
}

/**
 * The answer to a preflight (`OPTIONS` with the request's origin, method and headers): 204 with
 * what the browser may send and read, as Hono's `cors()` answers it.
 * @example
 * const preflight = corsPreflight(apiCorsOptions('*'));
 * preflight('https://app.example', 'authorization,content-type'); // { status: 204, headers: … }
 */
export function corsPreflight(
  options: CorsOptions,
): (origin: string | undefined, requestHeaders: string | undefined) => EarlyAnswer {
  const corsFor = corsResponseHeaders(options);
  const methods = (
    Array.isArray(options.allowMethods) ? options.allowMethods : PREFLIGHT_METHODS
  ).join(',');
  const allowHeaders = options.allowHeaders?.length ? options.allowHeaders.join(',') : null;
  return (origin, requestHeaders) => {
    const headers = corsFor(origin);
    if (options.maxAge != null) headers['access-control-max-age'] = String(options.maxAge);
    headers['access-control-allow-methods'] = methods;
    // No list configured: echo what the preflight asks for (see apiCorsOptions).
    const allowed =
      allowHeaders ??
      (requestHeaders
        ? requestHeaders
            .split(',')
            .map((h) => h.trim())
            .join(',')
        : null);
    if (allowed) {
      headers['access-control-allow-headers'] = allowed;
      headers.vary = headers.vary
        ? `${headers.vary}, Access-Control-Request-Headers`
        : 'Access-Control-Request-Headers';
    }
    return { status: 204, headers };
  };
}

/** What a preflight allows when the options name no methods (Hono's `cors()` default). */
const PREFLIGHT_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH', 'QUERY'];

/**
 * CORS for /v1/*: preflights answered here, before auth; every other answer carries the headers.
 * @example const stages = [corsStage(apiCorsOptions(config.corsOrigins)), …];
 */
export function corsStage(options: CorsOptions): Stage {
  const preflight = corsPreflight(options);
  const corsFor = corsResponseHeaders(options);
  return {
    name: 'cors',
    scope: 'api',
    enter(x) {
      const origin = x.header('origin');
      if (x.method === 'OPTIONS')
        return preflight(origin, x.header('access-control-request-headers'));
      Object.assign(x.headers, corsFor(origin));
      return undefined;
    },
  };
}

/**
 * One trailing slash on a request's path is dropped before any route sees it, so
 * `POST /v1/chat/completions/` (what a base URL ending in `/` plus a path starting with one, or a
 * hand-typed curl line, produces) is served as `/v1/chat/completions`, for every route, at the one
 * place requests enter (listen.ts).
 */

/**
 * The request target with one trailing slash dropped from its path; origin-form targets only
 * (`/v1/models/?limit=2` → `/v1/models?limit=2`); `/` and absolute-form targets are unchanged.
 *
 * @example
 * withoutTrailingSlash('/v1/chat/completions/'); // '/v1/chat/completions'
 */
export function withoutTrailingSlash(target: string): string {
  if (!target.startsWith('/')) return target;
  const query = target.indexOf('?');
  const end = query < 0 ? target.length : query;
  if (end <= 1 || target[end - 1] !== '/') return target;
  return target.slice(0, end - 1) + target.slice(end);
}

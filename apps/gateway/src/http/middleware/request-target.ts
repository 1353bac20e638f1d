/**
 * Refuses a NUL character (`%00`) in the request's path or query string with a 400 naming the path
 * parameter or query parameter that holds it, before any route passes it to the database (which
 * cannot store U+0000: a 500 otherwise). Percent-encoding is the only way a NUL gets into a URL,
 * so a URL without `%00` costs one substring search.
 */
import type { Stage } from '../exchange.js';
import type { RouteTable } from '../route-table.js';
import { unsafeTextError, visible } from '../unsafe-text.js';

const ENCODED_NUL = '%00';

/** Query-string decoding (`+` is a space), keeping the raw text when it is not valid UTF-8. */
function decodeQueryPart(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * The name of what holds a NUL in a request target (`file_id`, `after`), or null when nothing
 * does. The target is origin-form (`/v1/files/x?y=1`) or absolute-form.
 */
export function nulHolder(target: string, routes: RouteTable): string | null {
  if (!target.includes(ENCODED_NUL)) return null;
  const { pathname, search } = new URL(target, 'http://target.invalid');
  const segments = pathname.split('/').filter((s) => s !== '');
  const index = segments.findIndex((s) => s.includes(ENCODED_NUL));
  if (index >= 0) return routes.paramAt(pathname, index) ?? 'path';
  return nulInQuery(search);
}

/**
 * The name of the query parameter that holds a NUL in `search` (`?a=b&…`), or null.
 * @example nulInQuery('?after=x%00'); // 'after'
 */
export function nulInQuery(search: string): string | null {
  if (!search.includes(ENCODED_NUL)) return null;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair.includes(ENCODED_NUL)) continue;
    const [key = ''] = pair.split('=', 1);
    return visible(decodeQueryPart(key)) || 'query';
  }
  return null;
}

/**
 * 400 for a NUL in the URL, naming what holds it.
 * @example
 * const stages = [nulInUrlStage(routeTable(() => app.routes))];
 * // GET /v1/files/file-a%00b → 400 { code: 'invalid_characters', param: 'file_id' }
 */
export function nulInUrlStage(routes: RouteTable): Stage {
  return {
    name: 'nul-in-url',
    scope: 'api',
    enter(x) {
      const holder = nulHolder(x.target, routes);
      if (holder) throw unsafeTextError('nul', holder);
      return undefined;
    },
  };
}

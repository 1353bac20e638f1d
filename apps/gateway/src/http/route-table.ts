/**
 * The app's own routes as a table, for what the router alone cannot say: which methods a path
 * does have (405 + Allow instead of 404) and which path parameter a segment is (to name it in an
 * error raised before routing).
 */

export interface RouteEntry {
  method: string;
  path: string;
}

export interface RouteTable {
  /** The methods served at a concrete path (HEAD wherever GET is), sorted; empty if none. */
  methodsAt(path: string): string[];
  /** The name of the path parameter at segment `index` of `path` (`file_id`), or null. */
  paramAt(path: string, index: number): string | null;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

function matches(pattern: string[], segments: string[]): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((p, i) => p.startsWith(':') || p === segments[i])
  );
}

/**
 * @param routes Hono's `app.routes`, read lazily (routes are registered after the middleware).
 * Middleware entries (`ALL`, wildcards) are not routes and are left out.
 *
 * @example
 * const table = routeTable(() => app.routes);
 * table.methodsAt('/v1/models'); // ['GET', 'HEAD']
 * table.paramAt('/v1/files/abc', 2); // 'file_id'
 */
export function routeTable(routes: () => readonly RouteEntry[]): RouteTable {
  let built: { method: string; pattern: string[] }[] | null = null;
  const entries = () => {
    built ??= routes()
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ method: r.method.toUpperCase(), pattern: segmentsOf(r.path) }));
    return built;
  };
  return {
    methodsAt(path) {
      const segments = segmentsOf(path);
      const methods = new Set(
        entries()
          .filter((e) => matches(e.pattern, segments))
          .map((e) => e.method),
      );
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods].sort();
    },
    paramAt(path, index) {
      const segments = segmentsOf(path);
      for (const e of entries()) {
        const name = e.pattern[index];
        if (name?.startsWith(':') && matches(e.pattern, segments)) return name.slice(1);
      }
      return null;
    },
  };
}

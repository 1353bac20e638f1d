// A tiny router: exact paths in a Map (the hot text routes), patterns checked in order after.
import type { Ctx, Provider } from './context.js';

export type Handler = (ctx: Ctx) => void | Promise<void>;

export interface RouteDef {
  method: string;
  /** Exact path, or a pattern with `{param}` parts (no `/`) and a `*` segment (rest of path). */
  path: string;
  /** Stable name for `/__sim/stats`, e.g. `POST /openai/v1/chat/completions`. */
  name?: string;
  handler: Handler;
  /** Routes of the simulator's control API skip faults. */
  control?: boolean;
}

export interface Route {
  name: string;
  provider: Provider;
  handler: Handler;
  control: boolean;
}

interface PatternRoute {
  method: string;
  regex: RegExp;
  route: Route;
}

export interface RouteMatch {
  route: Route;
  params: string[];
}

export class Router {
  private readonly exact = new Map<string, Route>();
  private readonly patterns: PatternRoute[] = [];
  private readonly providers: Provider[] = [];

  /** Registers a provider's routes; paths are relative to `provider.prefix`. */
  add(provider: Provider, defs: RouteDef[]): void {
    this.providers.push(provider);
    for (const def of defs) {
      const full = provider.prefix + def.path;
      const route: Route = {
        name: def.name ?? `${def.method} ${full}`,
        provider,
        handler: def.handler,
        control: def.control ?? false,
      };
      if (!full.includes('{') && !full.includes('*')) {
        this.exact.set(`${def.method} ${full}`, route);
        continue;
      }
      const source = full
        .split('/')
        .map((segment) => {
          if (segment === '*') return '(.+)';
          // A segment may mix literal text and a parameter, e.g. `{model}:predictLongRunning`.
          return segment
            .split(/(\{[A-Za-z_]+\})/)
            .map((part) =>
              part.startsWith('{') ? '([^/]+?)' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
            )
            .join('');
        })
        .join('/');
      this.patterns.push({ method: def.method, regex: new RegExp(`^${source}$`), route });
    }
  }

  match(method: string, path: string): RouteMatch | undefined {
    const lookup = method === 'HEAD' ? 'GET' : method;
    const exact = this.exact.get(`${lookup} ${path}`);
    if (exact) return { route: exact, params: [] };
    for (const pattern of this.patterns) {
      if (pattern.method !== lookup) continue;
      const m = pattern.regex.exec(path);
      if (m) return { route: pattern.route, params: m.slice(1).map(decodeURIComponent) };
    }
    return undefined;
  }

  /** The provider whose prefix covers this path (for 404s in the right shape). */
  providerFor(path: string): Provider | undefined {
    let best: Provider | undefined;
    for (const provider of this.providers) {
      if (path === provider.prefix || path.startsWith(`${provider.prefix}/`)) {
        if (!best || provider.prefix.length > best.prefix.length) best = provider;
      }
    }
    return best;
  }
}

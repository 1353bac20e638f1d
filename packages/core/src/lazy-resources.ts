// The typed methods as stand-ins that load `./resources.js` (the generated SDK and its runtime) with
// a dynamic import on their first call. An app that only streams through `client.request` never
// fetches that chunk, which keeps the streaming bundle small; bundlers that split code put it in a
// chunk of its own, and bundles without splitting simply inline it. The stand-ins follow the path
// a call names (`client.keys.update`), so the methods are written once, in resources.ts.

import { ModelgateError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import type { Resources } from './resources.js';

/** The same methods as `createResources(config)`, each loading the real one first. */
export function lazyResources(config: ResolvedClientOptions): Resources {
  let loaded: Promise<Resources> | undefined;
  const load = () =>
    (loaded ??= import('./resources.js').then(
      (module) => module.createResources(config),
      (error: unknown) => {
        // A failed chunk download (offline, say) is retried on the next call.
        loaded = undefined;
        throw new ModelgateError(`Could not load the typed API methods: ${String(error)}`, {
          cause: error,
        });
      },
    ));
  return standIn([], load) as Resources;
}

/**
 * The group or method at `path`: reading a name goes one level down, calling it loads the real
 * methods and calls the one at `path`. `then` reads as absent, so awaiting a group is harmless.
 */
function standIn(path: readonly string[], load: () => Promise<Resources>): unknown {
  return new Proxy(() => {}, {
    get: (_target, name) =>
      typeof name === 'string' && name !== 'then' ? standIn([...path, name], load) : undefined,
    apply: async (_target, _this, args: unknown[]) => {
      const resources: unknown = await load();
      let group: unknown;
      let member: unknown = resources;
      for (const name of path) {
        group = member;
        member = isObject(member) ? member[name] : undefined;
      }
      if (typeof member !== 'function') {
        throw new TypeError(`client.${path.join('.')} is not a method of the modelgate client`);
      }
      return member.apply(group, args);
    },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

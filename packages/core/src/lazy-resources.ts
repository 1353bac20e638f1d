// The typed methods as stubs that load `./resources.js` (the generated SDK and its runtime) with a
// dynamic import on their first call. An app that only streams through `client.request` never
// fetches that chunk, which keeps the streaming bundle small; bundlers that split code put it in a
// chunk of its own, and bundles without splitting simply inline it.

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
  /** A stub that forwards to the method `pick` chooses once the module has loaded. */
  const lazy =
    <A extends unknown[], R>(pick: (resources: Resources) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> =>
      pick(await load())(...args);
  return {
    chat: { completions: { create: lazy((r) => r.chat.completions.create) } },
    completions: { create: lazy((r) => r.completions.create) },
    messages: { create: lazy((r) => r.messages.create) },
    models: { list: lazy((r) => r.models.list) },
    images: {
      generate: lazy((r) => r.images.generate),
      edit: lazy((r) => r.images.edit),
      createVariation: lazy((r) => r.images.createVariation),
    },
    embeddings: { create: lazy((r) => r.embeddings.create) },
    files: {
      create: lazy((r) => r.files.create),
      retrieve: lazy((r) => r.files.retrieve),
      delete: lazy((r) => r.files.delete),
    },
    video: {
      generations: {
        create: lazy((r) => r.video.generations.create),
        retrieve: lazy((r) => r.video.generations.retrieve),
        list: lazy((r) => r.video.generations.list),
        cancel: lazy((r) => r.video.generations.cancel),
      },
    },
    billing: { creditGrants: lazy((r) => r.billing.creditGrants) },
    tokens: { create: lazy((r) => r.tokens.create) },
    keys: {
      list: lazy((r) => r.keys.list),
      retrieve: lazy((r) => r.keys.retrieve),
      update: lazy((r) => r.keys.update),
      revoke: lazy((r) => r.keys.revoke),
    },
    usage: {
      retrieve: lazy((r) => r.usage.retrieve),
      records: { list: lazy((r) => r.usage.records.list) },
    },
    callbacks: {
      secret: {
        retrieve: lazy((r) => r.callbacks.secret.retrieve),
        rotate: lazy((r) => r.callbacks.secret.rotate),
      },
      deliveries: { list: lazy((r) => r.callbacks.deliveries.list) },
    },
  };
}

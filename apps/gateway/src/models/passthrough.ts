/**
 * The pass-through catalogue: each configured provider's own model list, under the provider's
 * names, at the default price. The lists are fetched when the gateway starts, again on a schedule,
 * and once more when a request names an id nobody lists (at most once per cooldown per provider).
 * A provider that cannot be asked serves its well-known list ({@link PASSTHROUGH_MODELS}) until
 * it can.
 */
import type { Logger } from '../observability/logger.js';
import { createTextProvider, type TextProviderSpec } from '../providers/text/index.js';
import { textPrice } from './cache-prices.js';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TEXT_PRICE, PASSTHROUGH_MODELS } from './defaults.js';
import { type LiveListTiming, LiveModelList } from './live-list.js';
import { closeProviders } from './provider-specs.js';
import { textListEntry } from './text-entry.js';
import type { ModelListEntry, TextModel, TextModelCatalog } from './types.js';

export interface PassthroughRefresh extends LiveListTiming {
  /** Time between two scheduled fetches of every list, ms. */
  intervalMs: number;
}

/** Defaults: 5 s to answer, every 10 min, a miss refreshes at most every 30 s. */
export const DEFAULT_PASSTHROUGH_REFRESH: PassthroughRefresh = {
  fetchTimeoutMs: 5_000,
  intervalMs: 10 * 60_000,
  missCooldownMs: 30_000,
};

export interface PassthroughOptions {
  /** One provider per kind; on an id both list, the first wins. */
  specs: TextProviderSpec[];
  reserved: ReadonlySet<string>;
  log: Logger;
  refresh?: Partial<PassthroughRefresh>;
}

/**
 * Lists nothing until `start()` (or a first miss) has asked the providers.
 *
 * @example
 * const catalog = createPassthroughCatalog({ specs, reserved: NON_TEXT_MODEL_IDS, log });
 * await catalog.start(); // ≤ 5 s: every provider asked once
 * catalog.resolve('gpt-4.1-2025-04-14'); // listed by the provider → routable
 */
export function createPassthroughCatalog(options: PassthroughOptions): TextModelCatalog {
  const { reserved, log } = options;
  const given = options.refresh ?? {};
  const timing: PassthroughRefresh = {
    fetchTimeoutMs: given.fetchTimeoutMs ?? DEFAULT_PASSTHROUGH_REFRESH.fetchTimeoutMs,
    intervalMs: given.intervalMs ?? DEFAULT_PASSTHROUGH_REFRESH.intervalMs,
    missCooldownMs: given.missCooldownMs ?? DEFAULT_PASSTHROUGH_REFRESH.missCooldownMs,
  };
  const sources = options.specs.map((spec) => ({
    provider: createTextProvider(spec),
    list: new LiveModelList(spec, PASSTHROUGH_MODELS[spec.kind], timing, log, () => rebuild()),
  }));
  let models = new Map<string, TextModel>();
  let listed: ModelListEntry[] = [];
  let timer: NodeJS.Timeout | null = null;

  function rebuild(): void {
    const next = new Map<string, TextModel>();
    const entries: ModelListEntry[] = [];
    for (const { provider, list } of sources) {
      if (!list.settled) continue;
      for (const { id, ownedBy, created } of list.models) {
        if (reserved.has(id) || next.has(id)) continue;
        const model: TextModel = {
          id,
          ownedBy,
          price: textPrice(DEFAULT_TEXT_PRICE, provider.kind, id),
          maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
          deployments: [{ id: `${provider.name}:${id}`, provider, upstreamModel: id, weight: 1 }],
        };
        next.set(id, model);
        entries.push(textListEntry(model, created));
      }
    }
    models = next;
    listed = entries;
  }

  const resolve = (id: string): TextModel | null => models.get(id) ?? null;

  return {
    mode: 'passthrough',
    resolve,
    async resolveFresh(id) {
      if (resolve(id) || reserved.has(id)) return resolve(id);
      await Promise.all(sources.map(({ list }) => list.refreshForMiss()));
      return resolve(id);
    },
    list: () => listed,
    async start() {
      await Promise.all(sources.map(({ list }) => list.refresh()));
      timer ??= setInterval(() => {
        for (const { list } of sources) void list.refresh();
      }, timing.intervalMs);
      // The schedule alone never keeps the process alive.
      timer.unref();
    },
    close() {
      if (timer) clearInterval(timer);
      for (const { list } of sources) list.close();
      return closeProviders(sources.map((s) => s.provider));
    },
  };
}

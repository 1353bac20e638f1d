/**
 * The text model catalogue: which model ids exist, what they cost, and which deployments serve
 * them. Three modes (docs/design.md#running):
 *  - `config`: the YAML's `models` section, providers from its `providers` section plus the
 *    implicit `openai` / `anthropic` providers when their env keys are set;
 *  - `passthrough`: only provider env keys (or YAML providers), no models configured — each
 *    provider's own model list (fetched from it, kept fresh: models/passthrough.ts) goes upstream
 *    under its own names, at a default price; any other name is unknown (404), so what is listed
 *    is what is routable and nothing unlisted is billed;
 *  - `demo`: no provider at all — the well-known models ({@link PASSTHROUGH_MODELS}), served by
 *    the in-process simulator.
 */

import type { TextModelSections } from '../config/text-models.js';
import { createLogger, type Logger } from '../observability/logger.js';
import {
  createTextProvider,
  DEFAULT_TIMEOUTS,
  type ProviderKind,
  type TextProvider,
  type TextProviderSpec,
} from '../providers/text/index.js';
import { textPrice } from './cache-prices.js';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TEXT_PRICE, PASSTHROUGH_MODELS } from './defaults.js';
import { createPassthroughCatalog, type PassthroughRefresh } from './passthrough.js';
import {
  closeProviders,
  configuredProviderSpec,
  envProviderSpecs,
  type ProviderCredentials,
} from './provider-specs.js';
import { textListEntry } from './text-entry.js';
import type { CatalogMode, ModelListEntry, TextModel, TextModelCatalog } from './types.js';

export {
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_TEXT_PRICE,
  PASSTHROUGH_MODELS,
  type TextPrice,
} from './defaults.js';
export type {
  CatalogMode,
  ModelListEntry,
  TextDeployment,
  TextModel,
  TextModelCatalog,
} from './types.js';

/** The key demo mode presents to the simulator (it accepts any non-empty key). */
const SIMULATOR_API_KEY = 'sk-modelgate-demo';

export interface CatalogOptions {
  /** The YAML's providers/models sections (parsed by parseTextModelConfig). */
  sections?: TextModelSections;
  /**
   * The environment the config was loaded from (`config.env`): the keys that `api_key_env` names
   * and the provider keys are looked up there, never in `process.env`, so config is read once.
   */
  env?: Record<string, string | undefined>;
  /**
   * Provider credentials already resolved from env (BASE's `config.providers`; in demo mode they
   * point at the simulator). When absent they are read from `env`.
   */
  credentials?: ProviderCredentials;
  /** Labels the catalogue as demo mode (credentials point at the in-process simulator). */
  demo?: boolean;
  /** Base URL of a simulator to use when no provider is configured at all. */
  simulatorUrl?: string;
  /** Ids that belong to another catalogue (video models) and must never resolve as text. */
  reservedModelIds?: ReadonlySet<string>;
  /** Pass-through mode: where fetch failures are reported. */
  log?: Logger;
  /** Pass-through mode: how the providers' lists are kept fresh. */
  refresh?: Partial<PassthroughRefresh>;
}

function deploymentId(provider: string, model: string): string {
  return `${provider}:${model}`;
}

/**
 * Builds the catalogue from config sections, env, or the simulator URL (see the modes above).
 * A pass-through catalogue lists nothing until `start()` has asked the providers.
 *
 * @example
 * const catalog = createTextModelCatalog({ env: config.env, log });
 * await catalog.start();
 * catalog.resolve('gpt-4o-mini')?.deployments[0]?.upstreamModel; // 'gpt-4o-mini' (if OpenAI lists it)
 */
export function createTextModelCatalog(options: CatalogOptions = {}): TextModelCatalog {
  const env = options.env ?? {};
  const reserved = options.reservedModelIds ?? new Set<string>();
  const sections = options.sections ?? {};
  const demo = options.demo === true;
  if (sections.models && sections.models.length > 0) {
    return configCatalog(sections, env, options.credentials, demo, reserved);
  }

  const specs = new Map<ProviderKind, TextProviderSpec>();
  for (const [name, config] of Object.entries(sections.providers ?? {})) {
    // Pass-through routes by kind: the first keyed provider of each kind serves it.
    const spec = configuredProviderSpec(name, config, env);
    if (spec && !specs.has(spec.kind)) specs.set(spec.kind, spec);
  }
  for (const [kind, spec] of envProviderSpecs(env, options.credentials, demo)) {
    if (!specs.has(kind)) specs.set(kind, spec);
  }
  if (specs.size > 0 && !demo) {
    return createPassthroughCatalog({
      specs: [...specs.values()],
      reserved,
      log: options.log ?? createLogger({ write: () => {} }),
      refresh: options.refresh,
    });
  }
  if (specs.size > 0) return wellKnownCatalog('demo', [...specs.values()], reserved);
  if (options.simulatorUrl) {
    return wellKnownCatalog('demo', simulatorSpecs(options.simulatorUrl), reserved);
  }
  return wellKnownCatalog('none', [], reserved);
}

/** The YAML's `models`, deployed on its `providers` and the env-keyed ones. */
function configCatalog(
  sections: TextModelSections,
  env: Record<string, string | undefined>,
  credentials: ProviderCredentials | undefined,
  demo: boolean,
  reserved: ReadonlySet<string>,
): TextModelCatalog {
  const specs = new Map<string, TextProviderSpec>(envProviderSpecs(env, credentials, demo));
  const keyless = new Set<string>();
  for (const [name, config] of Object.entries(sections.providers ?? {})) {
    const spec = configuredProviderSpec(name, config, env);
    specs.delete(name);
    if (spec) specs.set(name, spec);
    else keyless.add(name);
  }
  const providers = new Map<string, TextProvider>();
  const providerFor = (name: string): TextProvider | undefined => {
    const spec = specs.get(name);
    if (spec && !providers.has(name)) providers.set(name, createTextProvider(spec));
    return providers.get(name);
  };
  const models = new Map<string, TextModel>();
  for (const model of sections.models ?? []) {
    const deployments = model.deployments.map((d) => {
      const provider = providerFor(d.provider);
      if (!provider) {
        void closeProviders(providers.values());
        throw new Error(
          keyless.has(d.provider)
            ? `models: "${model.id}" deploys on provider "${d.provider}", which has no API key (set api_key, or api_key_env naming a set variable)`
            : `models: "${model.id}" deploys on provider "${d.provider}", which is not configured (no section and no env key)`,
        );
      }
      return {
        id: deploymentId(d.provider, d.model),
        provider,
        upstreamModel: d.model,
        weight: d.weight,
      };
    });
    models.set(model.id, {
      id: model.id,
      ownedBy: model.owned_by ?? deployments[0]!.provider.name,
      // Cache prices follow the first deployment's provider unless the config gives them.
      price: textPrice(
        {
          inputPerMillion: model.price.input_per_million,
          outputPerMillion: model.price.output_per_million,
        },
        deployments[0]!.provider.kind,
        deployments[0]!.upstreamModel,
        {
          cachedInputPerMillion: model.price.cached_input_per_million,
          cacheWrite5mPerMillion: model.price.cache_write_5m_per_million,
          cacheWrite1hPerMillion: model.price.cache_write_1h_per_million,
        },
      ),
      maxOutputTokens: model.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      deployments,
    });
  }
  for (const id of reserved) models.delete(id);
  return staticCatalog('config', models, providers.values());
}

/** Demo mode (and `none`): the well-known models of each provider kind. */
function wellKnownCatalog(
  mode: CatalogMode,
  specs: TextProviderSpec[],
  reserved: ReadonlySet<string>,
): TextModelCatalog {
  const models = new Map<string, TextModel>();
  const providers = specs.map(createTextProvider);
  for (const provider of providers) {
    for (const id of PASSTHROUGH_MODELS[provider.kind]) {
      if (reserved.has(id)) continue;
      models.set(id, {
        id,
        ownedBy: provider.kind,
        price: textPrice(DEFAULT_TEXT_PRICE, provider.kind, id),
        maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
        deployments: [
          { id: deploymentId(provider.name, id), provider, upstreamModel: id, weight: 1 },
        ],
      });
    }
  }
  return staticCatalog(mode, models, providers);
}

/** A catalogue whose models are fixed when it is built. */
function staticCatalog(
  mode: CatalogMode,
  models: ReadonlyMap<string, TextModel>,
  providers: Iterable<TextProvider>,
): TextModelCatalog {
  const created = Math.floor(Date.now() / 1000);
  const listed: ModelListEntry[] = [...models.values()].map((m) => textListEntry(m, created));
  const resolve = (id: string): TextModel | null => models.get(id) ?? null;
  const owned = [...providers];
  return {
    mode,
    resolve,
    resolveFresh: async (id) => resolve(id),
    list: () => listed,
    start: async () => {},
    close: () => closeProviders(owned),
  };
}

/** The in-process simulator as both providers (demo mode without provider credentials). */
function simulatorSpecs(simulatorUrl: string): TextProviderSpec[] {
  const sim = simulatorUrl.replace(/\/+$/, '');
  const spec = (kind: ProviderKind, baseUrl: string): TextProviderSpec => ({
    name: `simulator-${kind}`,
    kind,
    baseUrl,
    apiKey: SIMULATOR_API_KEY,
    timeouts: DEFAULT_TIMEOUTS,
  });
  return [spec('openai', `${sim}/openai/v1`), spec('anthropic', `${sim}/anthropic`)];
}

/**
 * Merges model lists from several catalogues (text, video) into the GET /v1/models body.
 *
 * @example
 * modelListResponse(textCatalog.list(), videoModels); // { object: 'list', data: [...] }
 */
export function modelListResponse(...lists: ModelListEntry[][]): {
  object: 'list';
  data: ModelListEntry[];
} {
  return { object: 'list', data: lists.flat() };
}

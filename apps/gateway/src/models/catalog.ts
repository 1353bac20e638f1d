/**
 * The text model catalogue: which model ids exist, what they cost, and which deployments serve
 * them. Three modes (docs/design.md#running):
 *  - `config`: the YAML's `models` section, providers from its `providers` section plus the
 *    implicit `openai` / `anthropic` providers when their env keys are set;
 *  - `passthrough`: only provider env keys, no models configured — the well-known models of each
 *    configured provider kind ({@link PASSTHROUGH_MODELS}) go upstream under their own names, at
 *    a default price; any other name is unknown (404), so what is listed is what is routable and
 *    nothing unlisted is billed. Other names need a `models` section (config mode);
 *  - `demo`: no provider at all — the same models, served by the in-process simulator.
 */
import {
  createTextProvider,
  DEFAULT_TIMEOUTS,
  type ProviderKind,
  type TextProvider,
} from '../providers/text/index.js';
import type { Weighted } from '../routing/router.js';
import { isEnvProviderName, type TextModelSections, type TextProviderConfig } from './config.js';

/** Price in credits per million tokens (= quota units per token, since 1 credit = 1e6 units). */
export interface TextPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export interface TextDeployment extends Weighted {
  provider: TextProvider;
  upstreamModel: string;
}

export interface TextModel {
  id: string;
  ownedBy: string;
  price: TextPrice;
  /** Used as max_tokens when a request gives none (Anthropic requires one). */
  maxOutputTokens: number;
  deployments: TextDeployment[];
}

/** One entry of GET /v1/models (OpenAI list shape plus `type`). */
export interface ModelListEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  type: 'text' | 'video';
  [extra: string]: unknown;
}

export type CatalogMode = 'config' | 'passthrough' | 'demo' | 'none';

export interface TextModelCatalog {
  readonly mode: CatalogMode;
  /** The model, or null when the id is unknown (→ 404 model_not_found). */
  resolve(id: string): TextModel | null;
  /** Text models for GET /v1/models. */
  list(): ModelListEntry[];
  close(): Promise<void>;
}

/** Price of pass-through and demo models, credits per million tokens. */
export const DEFAULT_TEXT_PRICE: TextPrice = { inputPerMillion: 1, outputPerMillion: 4 };
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/**
 * The models pass-through and demo modes serve, by provider kind: listed at GET /v1/models and
 * the only names that resolve there.
 */
export const PASSTHROUGH_MODELS: Record<ProviderKind, readonly string[]> = {
  openai: [
    'gpt-4o-mini',
    'gpt-4o',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'gpt-5',
    'gpt-5-mini',
    'gpt-5-nano',
    'o3-mini',
    'o4-mini',
  ],
  anthropic: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
};

const REAL_BASE_URL: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

const ENV_NAMES: Record<ProviderKind, { key: string; base: string }> = {
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL' },
};

/** The key demo mode presents to the simulator (it accepts any non-empty key). */
const SIMULATOR_API_KEY = 'sk-modelgate-demo';

export interface CatalogOptions {
  /** The YAML's providers/models sections (parsed by parseTextModelConfig). */
  sections?: TextModelSections;
  env?: Record<string, string | undefined>;
  /**
   * Provider credentials already resolved from env (BASE's `config.providers`; in demo mode they
   * point at the simulator). When absent they are read from `env`.
   */
  credentials?: Partial<Record<ProviderKind, { apiKey: string | null; baseUrl: string }>>;
  /** Labels the catalogue as demo mode (credentials point at the in-process simulator). */
  demo?: boolean;
  /** Base URL of a simulator to use when no provider is configured at all. */
  simulatorUrl?: string;
  /** Ids that belong to another catalogue (video models) and must never resolve as text. */
  reservedModelIds?: ReadonlySet<string>;
}

/** Providers from env keys (OPENAI_API_KEY / ANTHROPIC_API_KEY + *_BASE_URL) or resolved credentials. */
function envProviders(
  env: Record<string, string | undefined>,
  credentials: CatalogOptions['credentials'],
  demo: boolean,
): Map<string, TextProvider> {
  const providers = new Map<string, TextProvider>();
  for (const kind of ['openai', 'anthropic'] as const) {
    const given = credentials?.[kind];
    const apiKey = given ? given.apiKey : env[ENV_NAMES[kind].key]?.trim();
    if (!apiKey) continue;
    providers.set(
      kind,
      createTextProvider({
        name: demo ? `simulator-${kind}` : kind,
        kind,
        baseUrl: given?.baseUrl || env[ENV_NAMES[kind].base] || REAL_BASE_URL[kind],
        apiKey,
        timeouts: DEFAULT_TIMEOUTS,
      }),
    );
  }
  return providers;
}

function configuredProvider(
  name: string,
  config: TextProviderConfig,
  env: Record<string, string | undefined>,
): TextProvider | null {
  const envNames = ENV_NAMES[config.kind];
  const apiKey =
    config.api_key ??
    (config.api_key_env ? env[config.api_key_env] : undefined) ??
    (isEnvProviderName(name) ? env[envNames.key] : undefined);
  // A provider without a key is left out; it is an error only if a model deploys on it.
  if (!apiKey) return null;
  return createTextProvider({
    name,
    kind: config.kind,
    baseUrl:
      config.base_url ??
      (isEnvProviderName(name) ? env[envNames.base] : undefined) ??
      REAL_BASE_URL[config.kind],
    apiKey,
    headers: config.headers,
    timeouts: {
      connectMs: config.timeouts?.connect_ms ?? DEFAULT_TIMEOUTS.connectMs,
      firstByteMs: config.timeouts?.first_byte_ms ?? DEFAULT_TIMEOUTS.firstByteMs,
      idleMs: config.timeouts?.idle_ms ?? DEFAULT_TIMEOUTS.idleMs,
    },
  });
}

function deploymentId(provider: string, model: string): string {
  return `${provider}:${model}`;
}

/**
 * Builds the catalogue from config sections, env, or the simulator URL (see the modes above).
 *
 * @example
 * const catalog = createTextModelCatalog({ env: process.env });
 * catalog.resolve('gpt-4o-mini')?.deployments[0]?.upstreamModel; // 'gpt-4o-mini' (pass-through)
 */
export function createTextModelCatalog(options: CatalogOptions = {}): TextModelCatalog {
  const env = options.env ?? process.env;
  const reserved = options.reservedModelIds ?? new Set<string>();
  const created = Math.floor(Date.now() / 1000);
  const sections = options.sections ?? {};

  const demo = options.demo === true;
  if (sections.models && sections.models.length > 0) {
    const providers = envProviders(env, options.credentials, demo);
    const keyless = new Set<string>();
    for (const [name, config] of Object.entries(sections.providers ?? {})) {
      void providers.get(name)?.close();
      providers.delete(name);
      const provider = configuredProvider(name, config, env);
      if (provider) providers.set(name, provider);
      else keyless.add(name);
    }
    const models = new Map<string, TextModel>();
    for (const model of sections.models) {
      const deployments = model.deployments.map((d) => {
        const provider = providers.get(d.provider);
        if (!provider) {
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
        price: {
          inputPerMillion: model.price.input_per_million,
          outputPerMillion: model.price.output_per_million,
        },
        maxOutputTokens: model.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        deployments,
      });
    }
    return {
      mode: 'config',
      resolve: (id) => (reserved.has(id) ? null : (models.get(id) ?? null)),
      list: () =>
        [...models.values()].map((m) => ({
          id: m.id,
          object: 'model',
          created,
          owned_by: m.ownedBy,
          type: 'text',
        })),
      close: () => closeAll(providers.values()),
    };
  }

  let providers = new Map<string, TextProvider>();
  for (const [name, config] of Object.entries(sections.providers ?? {})) {
    const provider = configuredProvider(name, config, env);
    // Pass-through routes by kind: the first keyed provider of each kind serves it.
    if (provider && !providers.has(config.kind)) providers.set(config.kind, provider);
    else void provider?.close();
  }
  const fromEnv = envProviders(env, options.credentials, demo);
  for (const [kind, provider] of fromEnv) {
    if (providers.has(kind)) provider.close();
    else providers.set(kind, provider);
  }
  let mode: CatalogMode = demo ? 'demo' : 'passthrough';
  if (providers.size === 0 && options.simulatorUrl) {
    mode = 'demo';
    const sim = options.simulatorUrl.replace(/\/+$/, '');
    providers = new Map<string, TextProvider>([
      [
        'openai',
        createTextProvider({
          name: 'simulator-openai',
          kind: 'openai',
          baseUrl: `${sim}/openai/v1`,
          apiKey: SIMULATOR_API_KEY,
          timeouts: DEFAULT_TIMEOUTS,
        }),
      ],
      [
        'anthropic',
        createTextProvider({
          name: 'simulator-anthropic',
          kind: 'anthropic',
          baseUrl: `${sim}/anthropic`,
          apiKey: SIMULATOR_API_KEY,
          timeouts: DEFAULT_TIMEOUTS,
        }),
      ],
    ]);
  } else if (providers.size === 0) {
    mode = 'none';
  }

  const models = new Map<string, TextModel>();
  for (const provider of providers.values()) {
    for (const id of PASSTHROUGH_MODELS[provider.kind]) {
      if (reserved.has(id)) continue;
      models.set(id, {
        id,
        ownedBy: provider.kind,
        price: DEFAULT_TEXT_PRICE,
        maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
        deployments: [
          { id: deploymentId(provider.name, id), provider, upstreamModel: id, weight: 1 },
        ],
      });
    }
  }
  return {
    mode,
    resolve: (id) => models.get(id) ?? null,
    list: () =>
      [...models.values()].map((m) => ({
        id: m.id,
        object: 'model' as const,
        created,
        owned_by: m.ownedBy,
        type: 'text' as const,
      })),
    close: () => closeAll(providers.values()),
  };
}

async function closeAll(providers: Iterable<TextProvider>): Promise<void> {
  await Promise.all([...new Set(providers)].map((p) => p.close().catch(() => undefined)));
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

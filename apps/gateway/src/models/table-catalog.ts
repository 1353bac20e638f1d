/**
 * The catalogue of a kind whose models are a fixed table (images, embeddings): every model of the
 * table whose provider has credentials (or the simulator, in demo mode), one deployment each, and
 * none otherwise, so GET /v1/models lists exactly what can be served. Text models, which the YAML
 * file and pass-through mode define, have their own (catalog.ts).
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import type { Weighted } from '../routing/router.js';
import type { ModelListEntry } from './types.js';

/** What every table row names: the model's id, who serves it and under which upstream name. */
export interface TableModelSpec<Provider extends string> {
  id: string;
  provider: Provider;
  upstreamModel: string;
  ownedBy: string;
}

/** What the catalogue needs of an adapter: a name for metrics and logs, and a way to close it. */
export interface TableAdapter {
  readonly name: string;
  close(): Promise<void>;
}

export interface TableDeployment<Adapter> extends Weighted {
  provider: Adapter;
  upstreamModel: string;
}

/** A served model: its table row and the deployments the router picks from. */
export interface TableModel<Spec, Adapter> {
  spec: Spec;
  deployments: TableDeployment<Adapter>[];
}

export interface TableCatalog<Spec, Adapter> {
  /** The model, or null when this gateway does not serve it (→ 404 model_not_found). */
  resolve(id: string): TableModel<Spec, Adapter> | null;
  /** The served models. */
  models(): TableModel<Spec, Adapter>[];
  /** The served models for GET /v1/models. */
  list(): ModelListEntry[];
  close(): Promise<void>;
}

export interface TableCatalogOptions<
  Provider extends string,
  Spec extends TableModelSpec<Provider>,
  Adapter extends TableAdapter,
> {
  specs: readonly Spec[];
  /** Each provider's adapter, made from its credentials. */
  adapters: Record<
    Provider,
    (options: { name: string; baseUrl: string; apiKey: string }) => Adapter
  >;
  credentials: Record<Provider, ProviderCredentials>;
  /** Names the providers `simulator-<provider>` in metrics and logs. */
  demo: boolean;
  /** The kind's fields of a GET /v1/models entry (`type` and its capabilities). */
  entry(spec: Spec): Pick<ModelListEntry, 'type'> & Record<string, unknown>;
}

/**
 * @example
 * const catalog = createTableCatalog({
 *   specs: Object.values(EMBEDDING_MODELS),
 *   adapters: { openai: (o) => new OpenAiEmbeddingProvider(o), gemini: (o) => new GeminiEmbeddingProvider(o) },
 *   credentials: config.providers,
 *   demo: config.demoMode,
 *   entry: (spec) => ({ type: 'embedding', embedding: embeddingCapabilities(spec) }),
 * });
 * catalog.resolve('text-embedding-3-small')?.deployments[0]?.upstreamModel;
 */
export function createTableCatalog<
  Provider extends string,
  Spec extends TableModelSpec<Provider>,
  Adapter extends TableAdapter,
>(options: TableCatalogOptions<Provider, Spec, Adapter>): TableCatalog<Spec, Adapter> {
  const { adapters, credentials, demo } = options;
  const providers = new Map<Provider, Adapter>();
  const providerFor = (kind: Provider): Adapter | null => {
    const { configured, apiKey, baseUrl } = credentials[kind];
    if (!configured || !apiKey) return null;
    let provider = providers.get(kind);
    if (!provider) {
      provider = adapters[kind]({ name: demo ? `simulator-${kind}` : kind, baseUrl, apiKey });
      providers.set(kind, provider);
    }
    return provider;
  };
  const models = new Map<string, TableModel<Spec, Adapter>>();
  for (const spec of options.specs) {
    const provider = providerFor(spec.provider);
    if (!provider) continue;
    const { upstreamModel } = spec;
    const deployment = {
      id: `${provider.name}:${upstreamModel}`,
      weight: 1,
      provider,
      upstreamModel,
    };
    models.set(spec.id, { spec, deployments: [deployment] });
  }
  const created = Math.floor(Date.now() / 1000);
  const listed: ModelListEntry[] = [...models.values()].map(({ spec }) => ({
    id: spec.id,
    object: 'model',
    created,
    owned_by: spec.ownedBy,
    ...options.entry(spec),
  }));
  return {
    resolve: (id) => models.get(id) ?? null,
    models: () => [...models.values()],
    list: () => listed,
    close: async () => {
      await Promise.all([...providers.values()].map((p) => p.close()));
    },
  };
}

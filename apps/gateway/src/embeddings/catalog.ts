/**
 * Which embedding models this gateway serves and where: every model of the table (models.ts) whose
 * provider has credentials (`OPENAI_API_KEY`, `GEMINI_API_KEY`, or the simulator in demo mode).
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import type { ModelListEntry } from '../models/types.js';
import { GeminiEmbeddingProvider } from '../providers/embedding/gemini.js';
import { OpenAiEmbeddingProvider } from '../providers/embedding/openai.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { Weighted } from '../routing/router.js';
import {
  EMBEDDING_MODELS,
  type EmbeddingModelSpec,
  type EmbeddingProviderName,
  embeddingCapabilities,
} from './models.js';

export interface EmbeddingDeployment extends Weighted {
  provider: EmbeddingProvider;
  upstreamModel: string;
}

export interface EmbeddingModel {
  spec: EmbeddingModelSpec;
  deployments: EmbeddingDeployment[];
}

export interface EmbeddingCatalog {
  /** The model, or null when this gateway does not serve it (→ 404 model_not_found). */
  resolve(id: string): EmbeddingModel | null;
  list(): ModelListEntry[];
  close(): Promise<void>;
}

const ADAPTERS: Record<
  EmbeddingProviderName,
  (options: { name: string; baseUrl: string; apiKey: string }) => EmbeddingProvider
> = {
  openai: (options) => new OpenAiEmbeddingProvider(options),
  gemini: (options) => new GeminiEmbeddingProvider(options),
};

/**
 * @param demo names the providers `simulator-<provider>` in metrics and logs.
 * @example
 * const catalog = createEmbeddingCatalog(config.providers, false);
 */
export function createEmbeddingCatalog(
  credentials: Record<EmbeddingProviderName, ProviderCredentials>,
  demo: boolean,
): EmbeddingCatalog {
  const providers = new Map<EmbeddingProviderName, EmbeddingProvider>();
  const providerFor = (kind: EmbeddingProviderName): EmbeddingProvider | null => {
    const { configured, apiKey, baseUrl } = credentials[kind];
    if (!configured || !apiKey) return null;
    let provider = providers.get(kind);
    if (!provider) {
      provider = ADAPTERS[kind]({ name: demo ? `simulator-${kind}` : kind, baseUrl, apiKey });
      providers.set(kind, provider);
    }
    return provider;
  };
  const models = new Map<string, EmbeddingModel>();
  for (const spec of Object.values(EMBEDDING_MODELS)) {
    const provider = providerFor(spec.provider);
    if (!provider) continue;
    const id = `${provider.name}:${spec.upstreamModel}`;
    models.set(spec.id, {
      spec,
      deployments: [{ id, weight: 1, provider, upstreamModel: spec.upstreamModel }],
    });
  }
  const created = Math.floor(Date.now() / 1000);
  const listed: ModelListEntry[] = [...models.values()].map(({ spec }) => ({
    id: spec.id,
    object: 'model',
    created,
    owned_by: spec.ownedBy,
    type: 'embedding',
    embedding: embeddingCapabilities(spec),
  }));
  return {
    resolve: (id) => models.get(id) ?? null,
    list: () => listed,
    close: async () => {
      await Promise.all([...providers.values()].map((p) => p.close()));
    },
  };
}

/**
 * Which embedding models this gateway serves and where: every model of the table (models.ts) whose
 * provider has credentials (`OPENAI_API_KEY`, `GEMINI_API_KEY`, or the simulator in demo mode).
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import {
  EMBEDDING_MODELS,
  type EmbeddingModelSpec,
  type EmbeddingProviderName,
  embeddingCapabilities,
} from '../models/embeddings.js';
import {
  createTableCatalog,
  type TableCatalog,
  type TableDeployment,
  type TableModel,
} from '../models/table-catalog.js';
import { GeminiEmbeddingProvider } from '../providers/embedding/gemini.js';
import { OpenAiEmbeddingProvider } from '../providers/embedding/openai.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';

export type EmbeddingDeployment = TableDeployment<EmbeddingProvider>;
export type EmbeddingModel = TableModel<EmbeddingModelSpec, EmbeddingProvider>;
export type EmbeddingCatalog = TableCatalog<EmbeddingModelSpec, EmbeddingProvider>;

/**
 * @param demo names the providers `simulator-<provider>` in metrics and logs.
 * @example
 * const catalog = createEmbeddingCatalog(config.providers, false);
 */
export function createEmbeddingCatalog(
  credentials: Record<EmbeddingProviderName, ProviderCredentials>,
  demo: boolean,
): EmbeddingCatalog {
  return createTableCatalog<EmbeddingProviderName, EmbeddingModelSpec, EmbeddingProvider>({
    specs: Object.values(EMBEDDING_MODELS),
    adapters: {
      openai: (options) => new OpenAiEmbeddingProvider(options),
      gemini: (options) => new GeminiEmbeddingProvider(options),
    },
    credentials,
    demo,
    entry: (spec) => ({ type: 'embedding', embedding: embeddingCapabilities(spec) }),
  });
}

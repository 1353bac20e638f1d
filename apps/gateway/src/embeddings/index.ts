/**
 * The embeddings feature's entry point for the service container: the catalogue on the OpenAI
 * and Gemini credentials (the simulator in demo mode) and the service on top of it.
 */
import type { CoreServices } from '../core-services.js';
import type { IsTextModel } from '../models/model-kinds.js';
import type { Router } from '../routing/router.js';
import { createEmbeddingCatalog } from './catalog.js';
import { createEmbeddingsService, type EmbeddingsService } from './service.js';

export { EMBEDDING_MODEL_IDS, EMBEDDING_MODELS } from '../models/embeddings.js';
export type { EmbeddingsService } from './service.js';

/**
 * @param router the text path's, so embedding deployments fail over and cool down by the same rules.
 * @example
 * services.embeddings = createEmbeddingsFeature(services, services.text.router);
 */
export function createEmbeddingsFeature(
  core: CoreServices,
  router: Router,
  isTextModel?: IsTextModel,
): EmbeddingsService {
  const { config } = core;
  const embeddings = createEmbeddingsService({
    catalog: createEmbeddingCatalog(config.providers, config.demoMode),
    billing: core.billing,
    limiter: core.limiter,
    router,
    log: core.log.child({ component: 'embeddings' }),
    stdMetrics: core.stdMetrics,
    isTextModel,
  });
  core.lifecycle.add({ name: 'embeddings', stop: () => embeddings.close() });
  return embeddings;
}

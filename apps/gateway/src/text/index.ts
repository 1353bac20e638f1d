/**
 * The text feature's entry point for the service container: builds the model catalogue from
 * the config (YAML sections, provider credentials, demo mode) and the service on top of it.
 */
import { ConfigError } from '../config/config.js';
import { parseTextModelConfig, type TextModelSections } from '../config/text-models.js';
import type { CoreServices } from '../core-services.js';
import type { FilesService } from '../files/index.js';
import { createTextModelCatalog, type TextModelCatalog } from '../models/catalog.js';
import { NON_TEXT_MODEL_IDS } from '../models/model-kinds.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import { Router } from '../routing/router.js';
import { ownImageLoader } from './own-images.js';
import { createTextService, type TextService } from './service.js';

export { createTextService, type TextService, type TextServiceDeps } from './service.js';

/**
 * `files`: images pointing at uploaded files are inlined from it (text/own-images.ts).
 *
 * @example
 * services.text = createTextFeature(services, services.files);
 */
export function createTextFeature(core: CoreServices, files?: FilesService): TextService {
  const { config } = core;
  let catalog: TextModelCatalog;
  try {
    const sections: TextModelSections = parseTextModelConfig(config.file);
    catalog = createTextModelCatalog({
      sections,
      env: config.env,
      credentials: { openai: config.providers.openai, anthropic: config.providers.anthropic },
      demo: config.demoMode,
      simulatorUrl: config.simulatorUrl ?? undefined,
      reservedModelIds: NON_TEXT_MODEL_IDS,
      log: core.log.child({ component: 'models' }),
      refresh: { intervalMs: config.routing.modelsRefreshMs },
    });
  } catch (err) {
    // A bad providers/models section stops the start with a message naming the YAML path.
    throw new ConfigError(`MODELGATE_CONFIG: ${(err as Error).message}`);
  }
  const breaker = new CircuitBreaker(config.routing.breaker);
  const text = createTextService({
    catalog,
    billing: core.billing,
    limiter: core.limiter,
    log: core.log.child({ component: 'text' }),
    stdMetrics: core.stdMetrics,
    router: new Router({ breaker }),
    ...(files ? { images: ownImageLoader(files, core.cdnUrl) } : {}),
  });
  core.lifecycle.add({
    name: 'text',
    // Pass-through mode asks each provider for its models here (a few seconds at most).
    start: async () => {
      await catalog.start();
      core.log.info('text models', { mode: catalog.mode, models: catalog.list().map((m) => m.id) });
    },
    stop: () => text.close(),
  });
  return text;
}

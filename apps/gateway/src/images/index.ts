/**
 * The image feature's entry point for the service container: the catalogue on the image
 * providers' credentials (the simulator in demo mode) and the service on top of it.
 */
import type { CoreServices } from '../core-services.js';
import type { FilesService } from '../files/index.js';
import type { IsTextModel } from '../models/model-kinds.js';
import type { Router } from '../routing/router.js';
import { createImageCatalog } from './catalog.js';
import { createImagesService, type ImagesService } from './service.js';

export { IMAGE_MODEL_IDS, IMAGE_MODELS } from '../models/images.js';

/** How long an edit waits for an input image at a public URL (a slow host is the client's 400). */
const REMOTE_IMAGE_TIMEOUT_MS = 10_000;

export { createImagesService, type ImagesService } from './service.js';

/**
 * @param router the text path's, so image deployments fail over and cool down by the same rules.
 * @example
 * services.images = createImagesFeature(services, services.files, services.text.router);
 */
export function createImagesFeature(
  core: CoreServices,
  files: FilesService,
  router: Router,
  isTextModel?: IsTextModel,
): ImagesService {
  const { config } = core;
  const images = createImagesService({
    catalog: createImageCatalog(config.providers, config.demoMode),
    billing: core.billing,
    files,
    router,
    log: core.log.child({ component: 'images' }),
    stdMetrics: core.stdMetrics,
    inputs: {
      cdnUrl: core.cdnUrl,
      allowPrivate: config.callbacks.allowPrivate,
      fetchTimeoutMs: REMOTE_IMAGE_TIMEOUT_MS,
    },
    isTextModel,
  });
  core.lifecycle.add({ name: 'images', stop: () => images.close() });
  return images;
}

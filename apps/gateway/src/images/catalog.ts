/**
 * Which image models this gateway serves and where: every model of the table (models.ts) whose
 * provider has credentials (`OPENAI_API_KEY`, `GEMINI_API_KEY`, `ARK_API_KEY`, `BFL_API_KEY`, or
 * the simulator in demo mode), none otherwise, so GET /v1/models lists exactly what can be served.
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import {
  IMAGE_MODELS,
  type ImageModelSpec,
  type ImageProviderName,
  imageCapabilities,
} from '../models/images.js';
import {
  createTableCatalog,
  type TableCatalog,
  type TableDeployment,
  type TableModel,
} from '../models/table-catalog.js';
import { FluxImageProvider } from '../providers/image/flux.js';
import { GeminiImageProvider } from '../providers/image/gemini.js';
import { OpenAiImageProvider } from '../providers/image/openai.js';
import { SeedreamImageProvider } from '../providers/image/seedream.js';
import type { ImageOperation, ImageProvider } from '../providers/image/types.js';

export type ImageDeployment = TableDeployment<ImageProvider>;
export type ImageModel = TableModel<ImageModelSpec, ImageProvider>;

export interface ImageCatalog extends TableCatalog<ImageModelSpec, ImageProvider> {
  /** The served models that do an operation, for the message to a model that does not. */
  doing(operation: ImageOperation): string[];
}

/**
 * @param credentials the image providers' credentials (config.providers).
 * @param demo names the providers `simulator-<provider>` in metrics and logs.
 * @example
 * const catalog = createImageCatalog(config.providers, false);
 * catalog.resolve('dall-e-3')?.deployments[0]?.upstreamModel; // 'dall-e-3'
 */
export function createImageCatalog(
  credentials: Record<ImageProviderName, ProviderCredentials>,
  demo: boolean,
): ImageCatalog {
  const catalog = createTableCatalog<ImageProviderName, ImageModelSpec, ImageProvider>({
    specs: Object.values(IMAGE_MODELS),
    adapters: {
      openai: (options) => new OpenAiImageProvider(options),
      gemini: (options) => new GeminiImageProvider(options),
      byteplus: (options) => new SeedreamImageProvider(options),
      bfl: (options) => new FluxImageProvider(options),
    },
    credentials,
    demo,
    entry: (spec) => ({ type: 'image', image: imageCapabilities(spec) }),
  });
  return {
    ...catalog,
    doing: (operation) =>
      catalog
        .models()
        .filter((m) => m.spec.operations.includes(operation))
        .map((m) => m.spec.id),
  };
}

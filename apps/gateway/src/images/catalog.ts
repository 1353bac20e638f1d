/**
 * Which image models this gateway serves and where: every model of the table (models.ts) whose
 * provider has credentials (`OPENAI_API_KEY`, `GEMINI_API_KEY`, `ARK_API_KEY`, `BFL_API_KEY`, or
 * the simulator in demo mode), none otherwise, so GET /v1/models lists exactly what can be served.
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import type { ModelListEntry } from '../models/types.js';
import { FluxImageProvider } from '../providers/image/flux.js';
import { GeminiImageProvider } from '../providers/image/gemini.js';
import { OpenAiImageProvider } from '../providers/image/openai.js';
import { SeedreamImageProvider } from '../providers/image/seedream.js';
import type { ImageOperation, ImageProvider } from '../providers/image/types.js';
import type { Weighted } from '../routing/router.js';
import {
  IMAGE_MODELS,
  type ImageModelSpec,
  type ImageProviderName,
  imageCapabilities,
} from './models.js';

export interface ImageDeployment extends Weighted {
  provider: ImageProvider;
  upstreamModel: string;
}

/** A served image model: its table and the deployments the router picks from. */
export interface ImageModel {
  spec: ImageModelSpec;
  deployments: ImageDeployment[];
}

export interface ImageCatalog {
  /** The model, or null when this gateway does not serve it (→ 404 model_not_found). */
  resolve(id: string): ImageModel | null;
  /** The served models that do an operation, for the message to a model that does not. */
  doing(operation: ImageOperation): string[];
  /** Image models for GET /v1/models. */
  list(): ModelListEntry[];
  close(): Promise<void>;
}

/** Each image provider's adapter, made from its credentials. */
const ADAPTERS: Record<
  ImageProviderName,
  (options: { name: string; baseUrl: string; apiKey: string }) => ImageProvider
> = {
  openai: (options) => new OpenAiImageProvider(options),
  gemini: (options) => new GeminiImageProvider(options),
  byteplus: (options) => new SeedreamImageProvider(options),
  bfl: (options) => new FluxImageProvider(options),
};

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
  const providers = new Map<ImageProviderName, ImageProvider>();
  const providerFor = (kind: ImageProviderName): ImageProvider | null => {
    const { configured, apiKey, baseUrl } = credentials[kind];
    if (!configured || !apiKey) return null;
    let provider = providers.get(kind);
    if (!provider) {
      provider = ADAPTERS[kind]({ name: demo ? `simulator-${kind}` : kind, baseUrl, apiKey });
      providers.set(kind, provider);
    }
    return provider;
  };
  const models = new Map<string, ImageModel>();
  for (const spec of Object.values(IMAGE_MODELS)) {
    const provider = providerFor(spec.provider);
    if (!provider) continue;
    const deployment = {
      id: `${provider.name}:${spec.upstreamModel}`,
      weight: 1,
      provider,
      upstreamModel: spec.upstreamModel,
    };
    models.set(spec.id, { spec, deployments: [deployment] });
  }
  const created = Math.floor(Date.now() / 1000);
  const listed: ModelListEntry[] = [...models.values()].map(({ spec }) => ({
    id: spec.id,
    object: 'model',
    created,
    owned_by: spec.ownedBy,
    type: 'image',
    image: imageCapabilities(spec),
  }));
  return {
    resolve: (id) => models.get(id) ?? null,
    doing: (operation) =>
      [...models.values()]
        .filter((m) => m.spec.operations.includes(operation))
        .map((m) => m.spec.id),
    list: () => listed,
    close: async () => {
      await Promise.all([...providers.values()].map((p) => p.close()));
    },
  };
}

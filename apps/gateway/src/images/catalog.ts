/**
 * Which image models this gateway serves and where: every model of the table (models.ts) on the
 * OpenAI provider when it has credentials (`OPENAI_API_KEY`, or the simulator in demo mode), none
 * otherwise, so GET /v1/models lists exactly what can be served.
 */
import type { ProviderCredentials } from '../config/providers-env.js';
import type { ModelListEntry } from '../models/types.js';
import { type ImageProvider, OpenAiImageProvider } from '../providers/image/openai.js';
import type { Weighted } from '../routing/router.js';
import { IMAGE_MODELS, type ImageModelSpec, imageCapabilities } from './models.js';

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
  /** Image models for GET /v1/models. */
  list(): ModelListEntry[];
  close(): Promise<void>;
}

/**
 * @param name the provider's name in metrics and logs (`openai`, or `simulator-openai` in demo mode).
 * @example
 * const catalog = createImageCatalog(config.providers.openai, 'openai');
 * catalog.resolve('dall-e-3')?.deployments[0]?.upstreamModel; // 'dall-e-3'
 */
export function createImageCatalog(openai: ProviderCredentials, name: string): ImageCatalog {
  const models = new Map<string, ImageModel>();
  const provider =
    openai.configured && openai.apiKey
      ? new OpenAiImageProvider({ name, baseUrl: openai.baseUrl, apiKey: openai.apiKey })
      : null;
  for (const spec of Object.values(IMAGE_MODELS)) {
    if (!provider) break;
    const deployment = { id: `${name}:${spec.id}`, weight: 1, provider, upstreamModel: spec.id };
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
    list: () => listed,
    close: async () => provider?.close(),
  };
}

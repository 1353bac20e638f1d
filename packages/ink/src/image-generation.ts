// Image generation and edits for the CLI and the chat screen: the key's default image model, and
// images that always come back as URLs on the gateway's CDN (printable, downloadable, usable as a
// first frame or as the input of another edit).
import type {
  CreateImageEditJsonRequest,
  CreateImageRequest,
  ImageReference,
  ImagesResponse,
  ModelgateClient,
  NonStreaming,
} from '@modelgate/core';
import { isUrl, uploadImage } from './upload.js';

/** An image request without `response_format` (always `url` here) and with the model optional. */
export type ImageRequest = Omit<CreateImageRequest, 'model' | 'response_format'> & {
  /** `undefined`: the first image model `GET /v1/models` lists for the key. */
  model?: string | undefined;
};

export interface GeneratedImages {
  /** The model that made them (the one asked for, or the key's default). */
  model: string;
  /** The gateway's answer; each `data[i].url` is a stored file on its CDN. */
  response: ImagesResponse;
}

/**
 * The first image model `GET /v1/models` lists for the key that does `operation` (generate, or
 * edit): the gateway's own order, and only models the key may use. Rejects when it lists none (no
 * image provider's credentials, or a key limited to other models).
 *
 * @example
 * ```ts
 * await firstImageModel(client); // → 'gpt-image-1' on a gateway in demo mode
 * ```
 */
export async function firstImageModel(
  client: ModelgateClient,
  signal?: AbortSignal,
  operation: 'generate' | 'edit' = 'generate',
): Promise<string> {
  const { data } = await client.models.list({ signal });
  const model = data.find(
    (m) => m.type === 'image' && (m.image?.operations ?? ['generate']).includes(operation),
  );
  if (!model) throw new NoImageModelError();
  return model.id;
}

/** No image model to default to: shown as `no_image_model_error: …`. */
export class NoImageModelError extends Error {
  override name = 'NoImageModelError';

  constructor() {
    super('The gateway lists no image model for this key (see `modelgate models`).');
  }
}

/**
 * Generates images with `POST /v1/images/generations`, as stored files (`response_format: 'url'`,
 * whatever the model's default).
 *
 * @example
 * ```ts
 * const { model, response } = await generateImages(client, { prompt: 'a paper boat', n: 2 });
 * for (const image of response.data) console.log(model, image.url);
 * ```
 */
export async function generateImages(
  client: ModelgateClient,
  request: ImageRequest,
  signal?: AbortSignal,
): Promise<GeneratedImages> {
  const { model: asked, ...rest } = request;
  const model = asked ?? (await firstImageModel(client, signal));
  const response = await client.images.generate(
    { ...rest, model, response_format: 'url' },
    { signal },
  );
  return { model, response };
}

/** What `modelgate image --image …` edits: local files or URLs, and an optional mask. */
export interface ImageInputs {
  images: readonly string[];
  mask?: string | undefined;
}

/**
 * An input image as the edit names it: a URL as it is, a local file uploaded first (it stays a
 * file of the key, like `modelgate upload`).
 */
async function reference(
  client: ModelgateClient,
  source: string,
  signal?: AbortSignal,
): Promise<ImageReference> {
  if (isUrl(source)) return { image_url: source };
  const file = await uploadImage(client, source, { signal });
  return { file_id: file.id };
}

/**
 * Edits images with `POST /v1/images/edits` (the JSON form): local files are uploaded first, URLs
 * passed as they are; the results are stored files (`response_format: 'url'`).
 *
 * @example
 * ```ts
 * const { response } = await editImages(client, { prompt: 'make it dusk' }, { images: ['room.png'] });
 * console.log(response.data[0]?.url);
 * ```
 */
export async function editImages(
  client: ModelgateClient,
  request: ImageRequest,
  inputs: ImageInputs,
  signal?: AbortSignal,
): Promise<GeneratedImages> {
  const { model: asked, ...rest } = request;
  const model = asked ?? (await firstImageModel(client, signal, 'edit'));
  const images: ImageReference[] = [];
  for (const source of inputs.images) images.push(await reference(client, source, signal));
  const body: NonStreaming<CreateImageEditJsonRequest> = {
    ...rest,
    model,
    images,
    response_format: 'url',
  };
  if (inputs.mask !== undefined) body.mask = await reference(client, inputs.mask, signal);
  const response = await client.images.edit(body, { signal });
  return { model, response };
}

/** The answer's image URLs, in order (a `url` answer has one on every image). */
export function imageUrls(response: ImagesResponse): string[] {
  return response.data.flatMap((image) => (image.url === undefined ? [] : [image.url]));
}

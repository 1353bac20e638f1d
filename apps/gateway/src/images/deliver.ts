/**
 * Stage 5: the images as the client asked for them. `b64_json`: the upstream's base64, nothing
 * stored. `url`: each image becomes a file of the key in the blob store (files/service.ts, the
 * same rows and bytes as an upload), so every instance serves it from the CDN until the key
 * deletes it, and a video request can name it as `image_url`.
 */
import { Readable } from 'node:stream';
import type { GeneratedImage } from '@modelgate/core';
import type { FilesService } from '../files/index.js';
import type { ImageRequest } from './request.js';
import type { UpstreamImage } from './upstream.js';

/** The stored file's name, by operation: `generated-1.png`, `edited-1.png`, `variation-1.png`. */
const FILE_PREFIX: Record<ImageRequest['operation'], string> = {
  generate: 'generated',
  edit: 'edited',
  variation: 'variation',
};

/** Stores one image as a file of the key; resolves with its id and CDN URL. */
async function storeImage(
  files: FilesService,
  keyId: number,
  image: UpstreamImage,
  name: string,
): Promise<{ id: string; url: string }> {
  const staged = await files.store.stage(Readable.from([image.bytes]));
  const filename = `${name}.${image.type.ext}`;
  const file = await files.create(keyId, staged, image.type, { filename, purpose: 'image' });
  return { id: file.id, url: file.url };
}

/**
 * Stores every image, or none: when one cannot be stored, those that were are deleted again (the
 * request is refunded, so the key must not keep files it was never told about).
 */
async function storeAll(
  files: FilesService,
  keyId: number,
  images: readonly UpstreamImage[],
  operation: ImageRequest['operation'],
): Promise<string[]> {
  const stored = await Promise.allSettled(
    images.map((image, i) => storeImage(files, keyId, image, `${FILE_PREFIX[operation]}-${i + 1}`)),
  );
  const failed = stored.find((s) => s.status === 'rejected');
  if (!failed) return stored.map((s) => (s.status === 'fulfilled' ? s.value.url : ''));
  await Promise.allSettled(
    stored.flatMap((s) => (s.status === 'fulfilled' ? [files.delete(keyId, s.value.id)] : [])),
  );
  throw failed.reason;
}

/**
 * @example
 * const data = await deliverImages(answer.images, request, key.id, files);
 * // [{ url: 'http://localhost:8081/files/file-….png' }]
 */
export async function deliverImages(
  images: readonly UpstreamImage[],
  request: ImageRequest,
  keyId: number,
  files: FilesService,
): Promise<GeneratedImage[]> {
  const revised = (i: number) => {
    const prompt = images[i]?.revisedPrompt;
    return prompt === undefined ? {} : { revised_prompt: prompt };
  };
  if (request.responseFormat === 'b64_json') {
    return images.map((image, i) => ({ b64_json: image.base64, ...revised(i) }));
  }
  const urls = await storeAll(files, keyId, images, request.operation);
  return urls.map((url, i) => ({ url, ...revised(i) }));
}

/**
 * Images a request points at on the gateway's own CDN (files uploaded with `POST /v1/files`) are
 * sent upstream as their bytes, base64-encoded, whatever the upstream's format: a provider cannot
 * be counted on to reach the CDN (it is often a private or local address), and both formats take
 * inline images. Every other URL is passed on untouched for the provider to fetch.
 */

import type {
  CreateMessageRequest,
  CreateResponseRequest,
  ImageBase64Source,
} from '@modelgate/core';
import { badRequest } from '../errors/api-error.js';
import type { FilesService } from '../files/index.js';
import { isKnownBlock } from '../translate/content-blocks.js';
import type { TextRequest } from './request.js';

/** An image's bytes as both formats carry them inline. */
export interface InlineImage {
  mediaType: ImageBase64Source['media_type'];
  /** base64 */
  data: string;
}

/** The bytes behind one of our CDN URLs; null for any other URL. Throws 400 for a deleted file. */
export type OwnImageLoader = (url: string, param: string) => Promise<InlineImage | null>;

const FILE_PATH = /^\/files\/(file-[A-Za-z0-9]+)\.(png|jpg|webp|gif)$/;

/** The CDN address's extension names the file's type (the upload sniffed it). */
const MEDIA_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;

const isCdnExtension = (ext: string): ext is keyof typeof MEDIA_TYPES => ext in MEDIA_TYPES;

/**
 * @example
 * const load = ownImageLoader(services.files, services.cdnUrl);
 * await load('http://localhost:8081/files/file-abc.png', 'messages.0.content.1'); // { mediaType, data }
 */
export function ownImageLoader(files: FilesService, cdnUrl: string): OwnImageLoader {
  const base = cdnUrl.replace(/\/+$/, '');
  return async (url, param) => {
    if (!url.startsWith(`${base}/`)) return null;
    const match = FILE_PATH.exec(url.slice(base.length).split(/[?#]/)[0]!);
    const ext = match?.[2];
    if (!match || !ext || !isCdnExtension(ext)) return null;
    const row = await files.lookupForCdn(match[1]!, ext);
    const stream = row ? await files.store.get(row.sha256) : null;
    if (!row || !stream) {
      throw badRequest(
        `${param}: the file behind this URL no longer exists.`,
        param,
        'invalid_image_url',
      );
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return { mediaType: MEDIA_TYPES[ext], data: Buffer.concat(chunks).toString('base64') };
  };
}

/**
 * Replaces, in place, each image of a chat or messages body that points at our CDN with its bytes:
 * a chat part's URL becomes a `data:` URL, a messages block's source a base64 source.
 *
 * @example
 * await inlineOwnImages({ format: 'chat', body }, load);
 */
export async function inlineOwnImages(request: TextRequest, load: OwnImageLoader): Promise<void> {
  if (request.format === 'completion') return;
  if (request.format === 'responses') return inlineResponseImages(request.body, load);
  if (request.format === 'messages') return inlineMessagesImages(request.body, load);
  for (const [i, message] of request.body.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [j, part] of message.content.entries()) {
      if (part.type !== 'image_url') continue;
      const image = await load(part.image_url.url, `messages.${i}.content.${j}.image_url.url`);
      if (image) part.image_url.url = `data:${image.mediaType};base64,${image.data}`;
    }
  }
}

/** The same for a messages body: each `image` block's URL source that points at our CDN. */
async function inlineMessagesImages(body: CreateMessageRequest, load: OwnImageLoader) {
  for (const [i, message] of body.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [j, block] of message.content.entries()) {
      if (!isKnownBlock(block) || block.type !== 'image' || block.source.type !== 'url') continue;
      const image = await load(block.source.url, `messages.${i}.content.${j}.source.url`);
      if (image) block.source = { type: 'base64', media_type: image.mediaType, data: image.data };
    }
  }
}

/** The same for a responses body: each `input_image` part's URL that points at our CDN. */
async function inlineResponseImages(
  body: CreateResponseRequest,
  load: OwnImageLoader,
): Promise<void> {
  if (!Array.isArray(body.input)) return;
  for (const [i, item] of body.input.entries()) {
    if (!Array.isArray(item.content)) continue;
    for (const [j, part] of item.content.entries()) {
      if (part.type !== 'input_image' || typeof part.image_url !== 'string') continue;
      const image = await load(part.image_url, `input.${i}.content.${j}.image_url`);
      if (image) part.image_url = `data:${image.mediaType};base64,${image.data}`;
    }
  }
}

/**
 * Images between the two formats: a chat `image_url` part holds a URL, which is either a web
 * address or a `data:` URL carrying the bytes; a messages `image` block holds a source, either
 * `{type:'url'}` or `{type:'base64', media_type, data}`. A data URL and a base64 source are the
 * same thing spelt twice, so the mapping is lossless apart from chat's `detail` hint. A source of
 * `{type:'file', file_id}` is in the vendor's own Files API and has no chat form.
 */
import type { ImageBase64Source, ImageBlock } from '@modelgate/core';
import { badRequest } from '../errors/api-error.js';
import type { ChatImagePart } from './wire.js';

type ImageSource = ImageBlock['source'];

/** `data:<media type>;base64,<data>`, the only data-URL form image parts use. */
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/is;

/**
 * The source of a URL: a base64 source for a data URL, else a URL source.
 *
 * @example
 * imageSourceOfUrl('data:image/png;base64,iVBO'); // { type: 'base64', media_type: 'image/png', data: 'iVBO' }
 */
export function imageSourceOfUrl(url: string): ImageSource {
  const match = DATA_URL.exec(url);
  if (!match) return { type: 'url', url };
  const mediaType = match[1]!.toLowerCase();
  if (!isImageMediaType(mediaType)) {
    throw badRequest(
      `An image of type ${mediaType} cannot be sent to this model; use JPEG, PNG, GIF or WebP.`,
      null,
      'unsupported_value',
    );
  }
  return { type: 'base64', media_type: mediaType, data: match[2]! };
}

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

function isImageMediaType(type: string): type is ImageBase64Source['media_type'] {
  return IMAGE_MEDIA_TYPES.has(type);
}

/** The URL of a source: a data URL for base64 data; null for a file of the vendor's Files API. */
export function urlOfImageSource(source: ImageSource): string | null {
  if (source.type === 'file') return null;
  return source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
}

/** A chat image part → a messages image block (`detail` has no equivalent and is dropped). */
export function imageBlockOfPart(part: ChatImagePart): ImageBlock {
  return { type: 'image', source: imageSourceOfUrl(part.image_url.url) };
}

/**
 * A messages image block → a chat image part; null for an image in the vendor's Files API, which
 * no other upstream can read.
 */
export function imagePartOfBlock(block: ImageBlock): ChatImagePart | null {
  const url = urlOfImageSource(block.source);
  return url === null ? null : { type: 'image_url', image_url: { url } };
}

/**
 * Images between the two formats: a chat `image_url` part holds a URL, which is either a web
 * address or a `data:` URL carrying the bytes; a messages `image` block holds a source, either
 * `{type:'url'}` or `{type:'base64', media_type, data}`. A data URL and a base64 source are the
 * same thing spelt twice, so the mapping is lossless apart from chat's `detail` hint.
 */
import type { AnthropicImageBlock, AnthropicImageSource, OpenAiImagePart } from './wire.js';

/** `data:<media type>;base64,<data>`, the only data-URL form image parts use. */
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/is;

/**
 * The source of a URL: a base64 source for a data URL, else a URL source.
 *
 * @example
 * imageSourceOfUrl('data:image/png;base64,iVBO'); // { type: 'base64', media_type: 'image/png', data: 'iVBO' }
 */
export function imageSourceOfUrl(url: string): AnthropicImageSource {
  const match = DATA_URL.exec(url);
  if (match) return { type: 'base64', media_type: match[1]!.toLowerCase(), data: match[2]! };
  return { type: 'url', url };
}

/** The URL of a source: a data URL for base64 data. */
export function urlOfImageSource(source: AnthropicImageSource): string {
  return source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;
}

/** A chat image part → a messages image block (`detail` has no equivalent and is dropped). */
export function imageBlockOfPart(part: OpenAiImagePart): AnthropicImageBlock {
  return { type: 'image', source: imageSourceOfUrl(part.image_url.url) };
}

/** A messages image block → a chat image part. */
export function imagePartOfBlock(block: AnthropicImageBlock): OpenAiImagePart {
  return { type: 'image_url', image_url: { url: urlOfImageSource(block.source) } };
}

// The user message of a chat turn: plain text, or text plus attached images as content parts.
import type { ChatMessage, TextBlock } from '@modelgate/core';

/** An image content part in the OpenAI chat shape, pointing at an uploaded file's URL. */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}

/**
 * @example
 * ```ts
 * userMessage('What is in this picture?', [file.url]);
 * // → { role: 'user', content: [{ type: 'text', … }, { type: 'image_url', image_url: { url } }] }
 * ```
 */
export function userMessage(text: string, imageUrls: readonly string[] = []): ChatMessage {
  if (imageUrls.length === 0) return { role: 'user', content: text };
  const parts: (TextBlock | ImagePart)[] = [
    { type: 'text', text },
    ...imageUrls.map((url): ImagePart => ({ type: 'image_url', image_url: { url } })),
  ];
  // The API's message content takes text parts only so far; image parts are sent as they are and a
  // gateway that does not take them yet answers 400, which the screen shows like any error.
  return { role: 'user', content: parts as TextBlock[] };
}

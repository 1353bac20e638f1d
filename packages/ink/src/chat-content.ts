// The user message of a chat turn: plain text, or text plus attached images as content parts.
import type { ChatContentPart, ChatMessage } from '@modelgate/core';

/**
 * @example
 * ```ts
 * userMessage('What is in this picture?', [file.url]);
 * // → { role: 'user', content: [{ type: 'text', … }, { type: 'image_url', image_url: { url } }] }
 * ```
 */
export function userMessage(text: string, imageUrls: readonly string[] = []): ChatMessage {
  if (imageUrls.length === 0) return { role: 'user', content: text };
  const parts: ChatContentPart[] = [
    { type: 'text', text },
    ...imageUrls.map((url): ChatContentPart => ({ type: 'image_url', image_url: { url } })),
  ];
  return { role: 'user', content: parts };
}

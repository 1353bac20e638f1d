// A generated image's URL back to the stored file it is, so it can be used like an uploaded one.
import type { FileObject, ModelgateClient } from '@modelgate/core';

/**
 * The file id in a CDN URL, which the API describes as `{cdn_url}/files/{id}.{ext}`; `undefined`
 * for any other URL.
 *
 * @example
 * fileIdOfUrl('http://localhost:8081/files/file-abc123.png'); // 'file-abc123'
 */
export function fileIdOfUrl(url: string): string | undefined {
  const path = URL.canParse(url) ? new URL(url).pathname : '';
  return /\/files\/([^/.]+)\.\w+$/.exec(path)?.[1];
}

/**
 * The stored file (`GET /v1/files/{id}`) behind a CDN URL: what the video panel and the chat's
 * Attach take as "the image".
 *
 * @example
 * const file = await storedFile(client, images.urls[0]);
 */
export async function storedFile(client: ModelgateClient, url: string): Promise<FileObject> {
  const id = fileIdOfUrl(url);
  if (id === undefined) throw new Error(`${url} is not a file on the gateway's CDN`);
  return client.files.retrieve(id);
}

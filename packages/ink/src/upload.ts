// Uploads a local image with POST /v1/files, reporting how many bytes have gone out.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FileObject, ModelgateClient } from '@modelgate/core';

export interface UploadOptions {
  /** Called as the body is read out to the connection: bytes sent so far and the file's size. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal | undefined;
}

/**
 * Reads `path` and uploads it as an image; resolves with the stored file (its `url` is usable as
 * `image_url` and in chat image parts).
 *
 * @example
 * ```ts
 * const file = await uploadImage(client, './cat.png', { onProgress: (sent, total) => log(sent / total) });
 * console.log(file.url);
 * ```
 */
export async function uploadImage(
  client: ModelgateClient,
  path: string,
  options: UploadOptions = {},
): Promise<FileObject> {
  const bytes = await readFile(path);
  const file = new ProgressFile([bytes], basename(path), options.onProgress);
  return client.files.create({ file, purpose: 'image' }, { signal: options.signal });
}

/**
 * A File whose `stream()` counts the bytes pulled from it. fetch reads a multipart body's file part
 * through `stream()` as the connection takes it, so the count follows the upload.
 */
class ProgressFile extends File {
  constructor(
    parts: BlobPart[],
    name: string,
    private readonly onProgress: UploadOptions['onProgress'],
  ) {
    super(parts, name);
  }

  override stream(): ReturnType<File['stream']> {
    const total = this.size;
    const report = this.onProgress;
    if (!report) return super.stream();
    let sent = 0;
    report(0, total);
    return super.stream().pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          sent += chunk.byteLength;
          report(sent, total);
        },
      }),
    );
  }
}

/** True for `http(s)://…`: `--image` takes either a URL (passed on) or a local file (uploaded). */
export function isUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

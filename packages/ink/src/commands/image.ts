// `modelgate image "<prompt>"`: generates images (or edits those of --image), prints their URLs,
// and with --out saves them.
import type { ModelgateClient } from '@modelgate/core';
import { isAbortError } from '../errors.js';
import { outputPaths, saveImage, unwritableReason } from '../image-files.js';
import { editImages, generateImages, type ImageRequest, imageUrls } from '../image-generation.js';
import { type CommandIO, ExitCode, reportFailure } from './io.js';

export interface ImageCommandInput extends ImageRequest {
  client: ModelgateClient;
  /** Edit these (local files or URLs) instead of generating. */
  images?: string[] | undefined;
  mask?: string | undefined;
  /** Print the gateway's JSON instead of one URL a line. */
  json: boolean;
  /** Save the images here too (`-1`, `-2`, … before the extension when there are several). */
  out?: string | undefined;
}

/**
 * Generates images — or, with `images`, edits them (local files are uploaded first) — on the key's
 * first image model that does so unless `model` is given, and prints each one's
 * CDN URL on a line, or the gateway's JSON with `json`. With `out` the images are downloaded too;
 * an existing file is never overwritten, and that is checked before any credit is spent (exit 2).
 *
 * @example
 * ```ts
 * process.exitCode = await runImageCommand({ client, json: false, prompt: 'a paper boat', out: 'boat.png' }, process);
 * ```
 */
export async function runImageCommand(input: ImageCommandInput, io: CommandIO): Promise<number> {
  const { client, json, out, images, mask, ...request } = input;
  const paths = out === undefined ? [] : outputPaths(out, request.n ?? 1);
  const refusal = unwritableReason(paths);
  if (refusal !== undefined) {
    io.stderr.write(`modelgate: ${refusal}\n`);
    return ExitCode.usage;
  }
  try {
    const { response } =
      images === undefined
        ? await generateImages(client, request, io.signal)
        : await editImages(client, request, { images, mask }, io.signal);
    const urls = imageUrls(response);
    // The URLs first: the images are made and paid for even if saving them fails.
    io.stdout.write(`${json ? JSON.stringify(response, null, 2) : urls.join('\n')}\n`);
    for (const [index, url] of urls.entries()) {
      const path = paths[index];
      if (path !== undefined) await saveImage(url, path, io.signal);
    }
    return ExitCode.ok;
  } catch (error) {
    return isAbortError(error) ? ExitCode.interrupted : reportFailure(io, error);
  }
}

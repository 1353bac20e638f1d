// `modelgate upload <file>`: uploads an image, prints its URL.
import { basename } from 'node:path';
import type { ModelgateClient } from '@modelgate/core';
import { isAbortError } from '../errors.js';
import { uploadImage } from '../upload.js';
import { type CommandIO, ExitCode, reportFailure } from './io.js';
import { progressLine } from './progress.js';

/**
 * Uploads `file` with `POST /v1/files` (a progress bar on a terminal) and prints the stored
 * file's URL, or its JSON with `json`.
 *
 * @example
 * ```ts
 * process.exitCode = await runUploadCommand({ client, file: 'cat.png', json: false }, process);
 * ```
 */
export async function runUploadCommand(
  input: { client: ModelgateClient; file: string; json: boolean },
  io: CommandIO,
): Promise<number> {
  const line = progressLine(io, `upload ${basename(input.file)}`);
  try {
    const stored = await uploadImage(input.client, input.file, {
      signal: io.signal,
      onProgress: (sent, total) => line.update(total === 0 ? 100 : (sent / total) * 100),
    });
    line.done();
    io.stdout.write(`${input.json ? JSON.stringify(stored, null, 2) : stored.url}\n`);
    return ExitCode.ok;
  } catch (error) {
    line.done();
    return isAbortError(error) ? ExitCode.interrupted : reportFailure(io, error);
  }
}

/** A finished video downloaded into the blob store and probed. */
import type { FilesService } from '../../files/index.js';
import type { PollResult, VideoAdapter } from '../providers/types.js';
import type { VideoTaskRow } from '../task-object.js';
import type { StoredVideo } from './finish.js';
import { probeMp4 } from './mp4.js';
import { TaskInputError } from './types.js';

export interface ResultStoreDeps {
  files: FilesService;
  /** Largest result video accepted from a provider. Default 2 GiB. */
  maxVideoBytes?: number;
}

/**
 * The engine's `storeResult`: downloads a finished video into our blob store (refusing what is
 * not an MP4) and probes its duration and size.
 */
export function createResultStore(
  deps: ResultStoreDeps,
): (row: VideoTaskRow, adapter: VideoAdapter, result: PollResult) => Promise<StoredVideo> {
  const { files } = deps;
  return async function storeResult(row, adapter, result) {
    const response = await adapter.download({ resultUrl: result.resultUrl! });
    if (!response.body)
      throw new TaskInputError('invalid_result', `${adapter.provider} returned an empty video`);
    const staged = await files.store.stage(response.body, {
      maxBytes: deps.maxVideoBytes ?? 2 * 1024 ** 3,
    });
    if (staged.size < 8 || Buffer.from(staged.head).toString('latin1', 4, 8) !== 'ftyp') {
      await staged.discard();
      throw new TaskInputError(
        'invalid_result',
        `${adapter.provider} returned something that is not an MP4`,
      );
    }
    await files.keep(staged);
    const info = await probeMp4(async (start, length) => {
      const stream = await files.store.get(staged.sha256, { start, end: start + length - 1 });
      const chunks: Buffer[] = [];
      for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }, staged.size);
    return {
      sha256: staged.sha256,
      size: staged.size,
      duration: info?.duration || result.duration || row.params.duration || 0,
      width: info?.width ?? 0,
      height: info?.height ?? 0,
    };
  };
}

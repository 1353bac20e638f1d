/**
 * A finished video stored: downloaded into the blob store (refusing what is not an MP4) and probed
 * for its duration and frame size.
 */
import type { FilesService } from '../../files/index.js';
import type { PollResult, VideoAdapter } from '../providers/types.js';
import type { VideoTaskRow } from '../tables.js';
import type { StoredVideo } from './finish.js';
import { TaskInputError } from './step.js';

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

/*
 * Reads an MP4's duration and frame size from its `moov` box (`mvhd` for duration, the first
 * `tkhd` with a non-zero size for width and height) without reading the media data.
 *
 * @example
 * const info = await probeMp4((start, length) => readRange(start, length), fileSize);
 * // { duration: 5, width: 1280, height: 720 }
 */
export interface Mp4Info {
  duration: number;
  width: number;
  height: number;
}

export type RangeReader = (start: number, length: number) => Promise<Buffer>;

interface Box {
  type: string;
  /** Offset of the payload (after the header). */
  start: number;
  /** Offset one past the box's end. */
  end: number;
}

const MAX_MOOV_BYTES = 64 * 1024 * 1024;

async function readBoxHeader(
  read: RangeReader,
  offset: number,
  limit: number,
): Promise<Box | null> {
  if (offset + 8 > limit) return null;
  const header = await read(offset, Math.min(16, limit - offset));
  if (header.length < 8) return null;
  let size = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  let headerSize = 8;
  if (size === 1) {
    if (header.length < 16) return null;
    size = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  } else if (size === 0) {
    size = limit - offset;
  }
  if (size < headerSize || offset + size > limit) return null;
  return { type, start: offset + headerSize, end: offset + size };
}

function childBoxes(buf: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  let offset = from;
  while (offset + 8 <= to) {
    let size = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    let headerSize = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(offset + 8));
      headerSize = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    if (size < headerSize || offset + size > to) break;
    boxes.push({ type, start: offset + headerSize, end: offset + size });
    offset += size;
  }
  return boxes;
}

/** Returns null when the bytes are not an MP4 with a readable `moov`. */
export async function probeMp4(read: RangeReader, size: number): Promise<Mp4Info | null> {
  let offset = 0;
  let moov: Box | null = null;
  for (;;) {
    const box = await readBoxHeader(read, offset, size);
    if (!box) break;
    if (offset === 0 && box.type !== 'ftyp') return null;
    if (box.type === 'moov') {
      moov = box;
      break;
    }
    offset = box.end;
  }
  if (!moov || moov.end - moov.start > MAX_MOOV_BYTES) return null;
  const buf = await read(moov.start, moov.end - moov.start);
  const top = childBoxes(buf, 0, buf.length);
  const mvhd = top.find((b) => b.type === 'mvhd');
  if (!mvhd) return null;
  const version = buf[mvhd.start];
  const timescale =
    version === 1 ? buf.readUInt32BE(mvhd.start + 20) : buf.readUInt32BE(mvhd.start + 12);
  const units =
    version === 1
      ? Number(buf.readBigUInt64BE(mvhd.start + 24))
      : buf.readUInt32BE(mvhd.start + 16);
  let width = 0;
  let height = 0;
  for (const trak of top.filter((b) => b.type === 'trak')) {
    const tkhd = childBoxes(buf, trak.start, trak.end).find((b) => b.type === 'tkhd');
    if (!tkhd) continue;
    const at = tkhd.start + (buf[tkhd.start] === 1 ? 88 : 76);
    if (at + 8 > tkhd.end) continue;
    const w = buf.readUInt32BE(at) / 65536;
    const h = buf.readUInt32BE(at + 4) / 65536;
    if (w > 0 && h > 0) {
      width = Math.round(w);
      height = Math.round(h);
      break;
    }
  }
  return { duration: timescale > 0 ? units / timescale : 0, width, height };
}

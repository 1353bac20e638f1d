import { describe, expect, it } from 'vitest';
import { probeMp4 } from '../../../src/video/engine/result.js';
import { buildMp4 } from '../../support/mp4.js';

const reader = (buf: Buffer) => async (start: number, length: number) =>
  buf.subarray(start, start + length);

describe('probeMp4', () => {
  it('reads duration from mvhd and size from tkhd, moov after mdat', async () => {
    const mp4 = buildMp4({ seconds: 5.5, width: 1280, height: 720, mdatBytes: 50_000 });
    expect(await probeMp4(reader(mp4), mp4.length)).toEqual({
      duration: 5.5,
      width: 1280,
      height: 720,
    });
  });

  it('refuses bytes that are not an MP4', async () => {
    const junk = Buffer.from('not a video at all, just some words');
    expect(await probeMp4(reader(junk), junk.length)).toBeNull();
  });
});

// The picture an image model answers: an edit of the first input image (edit.ts) when there is
// one, else a picture drawn from the prompt (picture.ts), as PNG bytes of the size asked.
import { editPicture } from './edit.js';
import { startingPicture } from './input.js';
import { pictureSeed, renderPicture } from './picture.js';
import { rasterToPng } from './raster.js';

/**
 * @example
 * pictureFor({ prompt: 'a fox', inputs: [], width: 1024, height: 1024, index: 0 }); // a PNG
 */
export function pictureFor(job: {
  prompt: string;
  inputs: readonly Buffer[];
  width: number;
  height: number;
  index: number;
}): Buffer {
  const [first] = job.inputs;
  if (!first) {
    const seed = pictureSeed(job.prompt, job.index);
    return renderPicture({
      seed,
      width: job.width,
      height: job.height,
      format: 'png',
      transparent: false,
    });
  }
  const picture = editPicture(startingPicture(first), {
    width: job.width,
    height: job.height,
    prompt: job.prompt,
    index: job.index,
    region: { kind: 'all' },
  });
  return rasterToPng(picture, true);
}

/** A prompt the simulated models refuse, as a safety system would: it names `forbidden`. */
export function refusedPrompt(prompt: string): boolean {
  return /\bforbidden\b/i.test(prompt);
}

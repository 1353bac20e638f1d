// The pixel size of an aspect ratio for the models that are asked for a ratio (Gemini's image
// models, FLUX Kontext: about a megapixel each), and the ratio nearest an input image's shape.

/** Ratio → [width, height], as the providers document them (docs/providers.md §13, §15). */
export const RATIO_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};

/** The ratio of the table nearest `width` / `height`. */
export function nearestRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  let best = '1:1';
  let distance = Number.POSITIVE_INFINITY;
  for (const [ratio, [w, h]] of Object.entries(RATIO_SIZES)) {
    const d = Math.abs(Math.log(w / h) - target);
    if (d < distance) {
      best = ratio;
      distance = d;
    }
  }
  return best;
}

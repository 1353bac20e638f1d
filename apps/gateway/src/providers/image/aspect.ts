/**
 * The aspect ratio a `WIDTHxHEIGHT` size stands for, for the providers that are asked for a ratio
 * rather than pixels (Gemini's `aspectRatio`, FLUX Kontext's `aspect_ratio`). Each table size is
 * the provider's own pixel size for one ratio (docs/providers.md §13, §15).
 */
const RATIOS: Readonly<Record<string, string>> = {
  '1024x1024': '1:1',
  '832x1248': '2:3',
  '1248x832': '3:2',
  '864x1184': '3:4',
  '1184x864': '4:3',
  '896x1152': '4:5',
  '1152x896': '5:4',
  '768x1344': '9:16',
  '1344x768': '16:9',
  '1536x672': '21:9',
};

/**
 * @example
 * aspectRatioOf('1344x768'); // '16:9'
 * aspectRatioOf('auto'); // undefined: the provider chooses (the input image's, or square)
 */
export function aspectRatioOf(size: string): string | undefined {
  return RATIOS[size];
}

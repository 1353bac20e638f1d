// Shared build settings: every package ships ESM with declarations, built from src/ to dist/.
import type { Options } from 'tsup';

export const base: Options = {
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  splitting: true,
};

// Shared build settings: every package ships ESM with declarations, built from src/ to dist/.
import type { Options } from 'tsup';

/**
 * tsup 8.5.1's declaration build sets `baseUrl: '.'` itself, which TypeScript 6 refuses as
 * deprecated (TS5101; egoist/tsup#1388, open): acknowledge it for that build only. Our tsconfigs
 * set no baseUrl, so nothing else is silenced. A package with its own `dts` options spreads these.
 */
export const dtsCompilerOptions = { ignoreDeprecations: '6.0' };

export const base: Options = {
  format: ['esm'],
  target: 'node20',
  dts: { compilerOptions: dtsCompilerOptions },
  sourcemap: true,
  clean: true,
  treeshake: true,
  splitting: true,
};

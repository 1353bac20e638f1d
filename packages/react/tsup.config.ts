import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.js';

export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts' },
  // Browsers are the main target; the code itself only needs ES2022 + fetch + Web streams.
  target: 'es2022',
  // React and the modelgate packages are resolved by the consumer's bundler, never inlined.
  external: ['react', '@modelgate/core', '@modelgate/stream'],
});

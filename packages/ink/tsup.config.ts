import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.js';

export default defineConfig({
  ...base,
  // `index` is the library (the App component, the config loader); `cli` is the `modelgate` binary
  // (its `#!/usr/bin/env node` line is kept by esbuild).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
});

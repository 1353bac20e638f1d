import { defineConfig } from 'tsup';
import { base, dtsCompilerOptions } from '../../tsup.base.js';

export default defineConfig({
  ...base,
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  // CallbackEvent comes from @modelgate/core as a type only: inline it into our .d.ts so consumers
  // get the full type without installing @modelgate/core.
  dts: { compilerOptions: dtsCompilerOptions, resolve: ['@modelgate/core'] },
});

import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.ts';

export default defineConfig({
  ...base,
  // `zod` is its own entry so the gateway can import the schemas without the client; the client
  // reaches the same chunk only through a dynamic import (validateResponses).
  entry: { index: 'src/index.ts', zod: 'src/zod.ts' },
});

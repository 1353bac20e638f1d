import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.ts';

export default defineConfig({
  ...base,
  // `zod`, `sse` and `retry` are entries of their own so the gateway can import the schemas, the
  // SSE parser and the retry helpers without the client; the client reaches the zod chunk only
  // through a dynamic import (validateResponses).
  entry: {
    index: 'src/index.ts',
    zod: 'src/zod.ts',
    sse: 'src/sse.ts',
    retry: 'src/retry.ts',
  },
});

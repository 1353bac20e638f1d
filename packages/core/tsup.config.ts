import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.ts';

export default defineConfig({
  ...base,
  // `zod`, `sse`, `retry` and `usage` are entries of their own so the gateway can import the
  // schemas, the SSE parser, the retry helpers and the usage sums without the client; the client reaches the zod chunk only
  // through a dynamic import (validateResponses).
  entry: {
    index: 'src/index.ts',
    zod: 'src/zod.ts',
    sse: 'src/sse.ts',
    retry: 'src/retry.ts',
    usage: 'src/usage.ts',
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // A DOM for the hooks; the gateway runs in the main process (test/global-setup.ts), where
    // Node's own fetch and web streams serve it.
    environment: 'happy-dom',
    environmentOptions: {
      happyDOM: {
        // The page and the gateway have different origins and the gateway sends no CORS headers.
        settings: { fetch: { disableSameOriginPolicy: true } },
      },
    },
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

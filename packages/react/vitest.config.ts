import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // A DOM for the hooks; the gateway runs in the main process (test/global-setup.ts), where
    // Node's own fetch and web streams serve it.
    environment: 'happy-dom',
    // The page (happy-dom's default origin) and the gateway differ: requests go through CORS, as
    // in a browser, and the gateway answers it.
    globalSetup: ['test/global-setup.ts'],
    // happy-dom's fetch turns a Node body into a web stream whose controller it closes on the
    // Node stream's 'end' even after the page cancelled the body (Stop): an uncaught
    // ERR_INVALID_STATE inside happy-dom, after the test's own assertions. Only that one is ignored.
    onUnhandledError: (error) =>
      !(
        'code' in error &&
        error.code === 'ERR_INVALID_STATE' &&
        /Controller is already closed/.test(error.message) &&
        /happy-dom/.test(error.stack ?? '')
      ),
    testTimeout: 20_000,
    hookTimeout: 120_000,
  },
});

// The page talks to the gateway directly: the gateway answers CORS (MODELGATE_CORS_ORIGINS,
// default `*`), so no proxy is needed in development or preview.
import { defineConfig } from 'vite';

export default defineConfig({
  build: { outDir: 'dist', sourcemap: true },
});

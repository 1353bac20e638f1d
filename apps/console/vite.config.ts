// Built once into dist/ and served by the gateway at /console (its route resolves this package's
// dist/): every asset URL starts with /console/, and the hashed ones may be cached for good.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  build: { outDir: 'dist', sourcemap: false, emptyOutDir: true },
});

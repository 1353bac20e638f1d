// The demo is served with /v1 proxied to a gateway, so the browser talks to one origin: the
// gateway sends no CORS headers. MODELGATE_GATEWAY_URL picks the gateway (default: `pnpm start`'s).
import { defineConfig } from 'vite';

const gateway = process.env.MODELGATE_GATEWAY_URL ?? 'http://localhost:8080';
const proxy = { '/v1': { target: gateway } };

export default defineConfig({
  server: { proxy },
  preview: { proxy },
  build: { outDir: 'dist', sourcemap: true },
});

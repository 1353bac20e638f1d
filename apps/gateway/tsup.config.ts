import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { base } from '../../tsup.base.ts';

// The OpenAPI document is embedded at build time so dist/ serves /openapi.yaml and /docs without the
// repository next to it. At run time a fresher copy found in the checkout wins (see src/http/openapi.ts).
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';

export default defineConfig({
  ...base,
  entry: ['src/main.ts', 'src/index.ts'],
  define: { __MODELGATE_OPENAPI_YAML__: JSON.stringify(spec) },
});

// Generates src/generated from the spec: types, the fetch client, SDK functions and zod schemas.
// Re-run with `pnpm generate`; `pnpm generate:check` fails when the committed output is stale.
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: '../../spec/openapi.yaml',
  output: {
    path: 'src/generated',
    clean: true,
    // NodeNext resolution needs explicit `.js` extensions on relative imports.
    module: { extension: '.js' },
    // No post-processing: the output must not depend on which formatter is installed.
    postProcess: [],
  },
  plugins: [
    '@hey-api/typescript',
    // `baseUrl: false`: the hand-written createClient always supplies it.
    { name: '@hey-api/client-fetch', baseUrl: false },
    // No validator here: validation is opt-in and loads the zod schemas lazily (src/validate.ts).
    { name: '@hey-api/sdk', validator: false },
    {
      name: 'zod',
      compatibilityVersion: 4,
      '~resolvers': {
        // additionalProperties: false → z.strictObject(): the gateway refuses unknown request
        // fields instead of silently stripping them (spec/README.md, "Strict bodies").
        object(ctx) {
          if (ctx.schema.additionalProperties?.type === 'never') {
            return ctx.$(ctx.symbols.z).attr('strictObject').call(ctx.nodes.shape(ctx));
          }
          // additionalProperties: true next to named properties → z.looseObject(): the text
          // bodies validate the fields they name and keep the others, to pass them upstream
          // (spec/README.md, "Open text bodies").
          const named = Object.keys(ctx.schema.properties ?? {}).length > 0;
          if (named && ctx.schema.additionalProperties?.type === 'unknown') {
            return ctx.$(ctx.symbols.z).attr('looseObject').call(ctx.nodes.shape(ctx));
          }
          return undefined;
        },
      },
    },
  ],
});

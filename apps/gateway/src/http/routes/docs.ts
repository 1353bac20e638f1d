/**
 * `GET /docs`: the API reference, rendered in the browser by Scalar (`@scalar/api-reference`) from
 * `/openapi.yaml`. Everything the page loads comes from this gateway: the renderer is the
 * package's own standalone browser bundle, served from `/docs/scalar.js`, and the page turns off
 * every feature that would reach another host (web fonts, telemetry, the hosted AI agent, MCP).
 *
 * Scalar renders OpenAPI 3.2 (the spec's streamed responses use 3.2's `itemSchema`) and the
 * spec's Markdown, tables included. Its package declares Node ≥ 22 for its server-side entry
 * points; the gateway only reads the browser bundle's bytes, on any Node.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { notFound } from '../../errors/api-error.js';
import type { AppEnv } from '../env.js';
import { loadOpenApiYaml } from '../openapi-source.js';

const BUNDLE_PATH = '/docs/scalar.js';

/** The page's Scalar configuration (https://scalar.com/products/api-references/configuration). */
const SCALAR_CONFIG = {
  url: '/openapi.yaml',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  showToolbar: 'never',
  documentDownloadType: 'yaml',
  // One long page, like a printed reference: every operation is there to read and to find with the
  // browser's own search, without opening its tag first.
  defaultOpenAllTags: true,
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>modelgate API reference</title>
</head>
<body>
<div id="reference"></div>
<script src="${BUNDLE_PATH}"></script>
<script>
Scalar.createApiReference('#reference', {
  ...${JSON.stringify(SCALAR_CONFIG)},
  // "Send request" goes to the gateway that served this page, wherever it runs.
  servers: [{ url: location.origin, description: 'this gateway' }],
});
</script>
</body>
</html>
`;

interface Bundle {
  raw: Buffer;
  gzip: Buffer;
  etag: string;
}

let bundle: Bundle | null = null;

/** The renderer's bytes, read and compressed once (4.9 MB, 1.4 MB gzipped with Scalar 1.76). */
function loadBundle(): Bundle {
  if (bundle) return bundle;
  const entry = fileURLToPath(import.meta.resolve('@scalar/api-reference'));
  const packageDir = join(dirname(entry), '..');
  const raw = readFileSync(join(packageDir, 'dist/browser/standalone.js'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  bundle = { raw, gzip: gzipSync(raw), etag: `"scalar-${version}"` };
  return bundle;
}

/**
 * @example
 * registerDocsRoutes(app); // GET /docs and GET /docs/scalar.js
 */
export function registerDocsRoutes(app: Hono<AppEnv>): void {
  app.get('/docs', (c) => {
    if (!loadOpenApiYaml()) throw notFound('The OpenAPI document is not available in this build.');
    return c.html(PAGE);
  });

  app.get(BUNDLE_PATH, (c) => {
    const { raw, gzip, etag } = loadBundle();
    const headers: Record<string, string> = {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
      etag,
      vary: 'accept-encoding',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      return c.body(new Uint8Array(gzip), 200, { ...headers, 'content-encoding': 'gzip' });
    }
    return c.body(new Uint8Array(raw), 200, headers);
  });
}

/**
 * Where the OpenAPI document comes from: the repository's spec/openapi.yaml when the gateway runs from
 * a checkout (always current), else the copy embedded into dist/ at build time (tsup `define`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __MODELGATE_OPENAPI_YAML__: string | undefined;

function findInCheckout(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'spec', 'openapi.yaml');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

let cached: string | null | undefined;

/** The spec text, or null when neither a checkout copy nor an embedded copy exists. */
export function loadOpenApiYaml(): string | null {
  if (cached !== undefined) return cached;
  const path = findInCheckout();
  if (path) {
    cached = readFileSync(path, 'utf8');
  } else {
    const embedded =
      typeof __MODELGATE_OPENAPI_YAML__ === 'string' ? __MODELGATE_OPENAPI_YAML__ : '';
    cached = embedded || null;
  }
  return cached;
}

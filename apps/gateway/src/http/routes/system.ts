/**
 * Unauthenticated operational routes: health, readiness, metrics, the spec and its reference page,
 * and the operator console's static files (its API calls carry a key like any client's).
 */
import type { Hono } from 'hono';
import { sql } from 'kysely';
import { migrationsComplete } from '../../db/migrate.js';
import { notFound } from '../../errors/api-error.js';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { loadOpenApiYaml } from '../openapi-source.js';
import { registerConsoleRoutes } from './console.js';
import { registerDocsRoutes } from './docs.js';

export function registerSystemRoutes(app: Hono<AppEnv>, services: Services): void {
  // Agents probe the base URL before their first call (Claude Code sends HEAD /, which Hono
  // answers from this GET without the body): a 200 naming the service and where its API is.
  app.get('/', (c) =>
    c.json({ service: 'modelgate', status: 'ok', docs: '/docs', openapi: '/openapi.yaml' }),
  );
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    if (services.lifecycle.draining) return c.json({ status: 'draining' }, 503);
    try {
      await sql`select 1`.execute(services.db);
      if (!(await migrationsComplete(services.db))) {
        return c.json({ status: 'migrating' }, 503);
      }
    } catch {
      return c.json({ status: 'database_unreachable' }, 503);
    }
    return c.json({ status: 'ready' });
  });

  app.get('/metrics', (c) =>
    c.body(services.metrics.render(), 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    }),
  );

  app.get('/openapi.yaml', (c) => {
    const spec = loadOpenApiYaml();
    if (!spec) throw notFound('The OpenAPI document is not available in this build.');
    return c.body(spec, 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });

  registerDocsRoutes(app);
  registerConsoleRoutes(app);
}

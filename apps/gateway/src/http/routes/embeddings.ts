/**
 * POST /v1/embeddings: the body validated with the spec's zod schema, handed to the embeddings
 * service (which resolves, checks the model's table, holds tokens and quota, routes and settles).
 */
import { zCreateEmbeddingRequest } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import { validateBody } from '../../errors/validate.js';
import type { Services } from '../../services.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { readJsonBody } from '../validate.js';

export function registerEmbeddingRoutes(app: Hono<AppEnv>, services: Services): void {
  app.post('/v1/embeddings', async (c) => {
    const body = validateBody(zCreateEmbeddingRequest, await readJsonBody(c));
    return services.embeddings.create(body, {
      key: c.get('key'),
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt') ?? performance.now(),
      abort: clientAbort(c),
    });
  });
}

/**
 * Image routes: POST /v1/images/generations. The route validates with the spec's zod schema and
 * hands the typed body to the image service (which resolves, checks the model's table, bills,
 * routes and stores).
 */
import { zCreateImageRequest } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { readJsonBody, validateBody } from '../validate.js';

export function registerImageRoutes(app: Hono<AppEnv>, services: Services): void {
  app.post('/v1/images/generations', async (c) => {
    const body = validateBody(zCreateImageRequest, await readJsonBody(c));
    return services.images.generate(body, {
      key: c.get('key'),
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt') ?? performance.now(),
      abort: clientAbort(c),
    });
  });
}

/**
 * Video generations: submit, list, get, cancel. Routes orchestrate; validation, billing and the
 * task engine live in src/video and src/tasks.
 */
import { zListVideoGenerationsQuery } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { listedKeyId } from '../middleware/auth.js';
import { validateQuery } from '../query.js';
import { readJsonBody } from '../validate.js';

export function registerVideoRoutes(app: Hono<AppEnv>, services: Services): void {
  const { video } = services;

  app.post('/v1/video/generations', async (c) => {
    const body = await readJsonBody(c);
    const created = await video.submit(c.get('key'), body, c.req.header('idempotency-key') ?? null);
    return c.json(created, 200);
  });

  app.get('/v1/video/generations', async (c) => {
    const query = validateQuery(c, zListVideoGenerationsQuery);
    return c.json(
      await video.list(listedKeyId(c.get('key'), query.key_id, 'video tasks'), {
        limit: query.limit,
        after: query.after ?? null,
        status: query.status ?? null,
      }),
    );
  });

  app.get('/v1/video/generations/:task_id', async (c) =>
    c.json(await video.get(c.get('key').id, c.req.param('task_id'))),
  );

  app.post('/v1/video/generations/:task_id/cancel', async (c) =>
    c.json(await video.cancel(c.get('key').id, c.req.param('task_id'))),
  );
}

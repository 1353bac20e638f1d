/**
 * Video generations: submit, list, get, cancel. Routes orchestrate; validation, billing and the
 * task engine live in src/video and src/tasks.
 */
import { zListVideoGenerationsQuery } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { badRequest } from '../errors.js';
import { refuseUnknownQuery } from '../query.js';
import { readJsonBody } from '../validate.js';

const STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];

export function registerVideoRoutes(app: Hono<AppEnv>, services: Services): void {
  const { video } = services;

  app.post('/v1/video/generations', async (c) => {
    const body = await readJsonBody(c);
    const created = await video.submit(c.get('key'), body, c.req.header('idempotency-key') ?? null);
    return c.json(created, 200);
  });

  app.get('/v1/video/generations', async (c) => {
    refuseUnknownQuery(c, zListVideoGenerationsQuery);
    const rawLimit = c.req.query('limit');
    let limit = 20;
    if (rawLimit !== undefined) {
      limit = Number(rawLimit);
      if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > 100) {
        throw badRequest('limit must be an integer from 1 to 100.', 'limit', 'out_of_range');
      }
    }
    const status = c.req.query('status');
    if (status !== undefined && !STATUSES.includes(status)) {
      throw badRequest(`status must be one of: ${STATUSES.join(', ')}.`, 'status', 'invalid_value');
    }
    const after = c.req.query('after');
    if (after !== undefined && (after.length < 1 || after.length > 256)) {
      throw badRequest('after must be 1 to 256 characters.', 'after', 'invalid_value');
    }
    return c.json(
      await video.list(c.get('key').id, { limit, after: after ?? null, status: status ?? null }),
    );
  });

  app.get('/v1/video/generations/:task_id', async (c) =>
    c.json(await video.get(c.get('key').id, c.req.param('task_id'))),
  );

  app.post('/v1/video/generations/:task_id/cancel', async (c) =>
    c.json(await video.cancel(c.get('key').id, c.req.param('task_id'))),
  );
}

/** Callback secret (read, rotate), the key's delivery log (an administrator's: the budget alerts' too), and redelivery. */
import {
  zListCallbackDeliveriesQuery,
  zRedeliverCallbackPath,
  zRotateCallbackSecretRequest,
} from '@modelgate/core/zod';
import type { Hono } from 'hono';
import { badRequest, forbidden } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { actorOf, listedKeyId } from '../middleware/auth.js';
import { validatePath, validateQuery } from '../query.js';
import { readJsonBody } from '../validate.js';

const MAX_GRACE_PERIOD_SECONDS = 7 * 24 * 60 * 60;

export function registerCallbackRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/callbacks/secret', async (c) => {
    return c.json(await services.callbacks.getSecret(c.get('key').id));
  });

  app.post('/v1/callbacks/secret', async (c) => {
    // The body is optional; when present it is JSON like every other body (415 otherwise).
    const grace = gracePeriodFrom(await readJsonBody(c, { optional: true }));
    const actor = actorOf(c);
    return c.json(await services.callbacks.rotateSecret(actor.keyId, grace, actor));
  });

  app.get('/v1/callbacks/deliveries', async (c) => {
    const query = validateQuery(c, zListCallbackDeliveriesQuery);
    const key = c.get('key');
    return c.json(
      await services.callbacks.listDeliveries(
        query.kind === 'budget_alert'
          ? budgetAlertsOwner(key, query.key_id)
          : listedKeyId(key, query.key_id, 'callback deliveries'),
        {
          limit: query.limit,
          after: query.after ?? null,
          taskId: query.task_id ?? null,
        },
      ),
    );
  });

  app.post('/v1/callbacks/deliveries/:delivery_id/redeliver', async (c) => {
    const { delivery_id: id } = validatePath(c, zRedeliverCallbackPath);
    const key = c.get('key');
    return c.json(
      await services.callbacks.redeliver({ keyId: key.id, admin: key.role === 'admin' }, id),
    );
  });
}

/** The budget alerts belong to no key (null): an administrator's to read, never one key's list. */
function budgetAlertsOwner(key: { role: 'admin' | 'user' }, requested: number | undefined): null {
  if (key.role !== 'admin') {
    throw forbidden('Budget alert deliveries need an admin key.', 'admin_key_required');
  }
  if (requested !== undefined) {
    throw badRequest(
      'Budget alerts belong to no key: leave out key_id with kind=budget_alert.',
      'key_id',
      'invalid_value',
    );
  }
  return null;
}

/** The body is optional: absent means the default grace period (undefined). */
function gracePeriodFrom(body: unknown): number | undefined {
  if (body === undefined) return undefined;
  const { grace_period_seconds: grace } = validateBody(zRotateCallbackSecretRequest.strict(), body);
  if (grace !== undefined && (grace < 0 || grace > MAX_GRACE_PERIOD_SECONDS)) {
    throw badRequest(
      `grace_period_seconds must be between 0 and ${MAX_GRACE_PERIOD_SECONDS}.`,
      'grace_period_seconds',
      'out_of_range',
    );
  }
  return grace;
}

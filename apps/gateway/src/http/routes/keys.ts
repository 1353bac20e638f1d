/**
 * Key administration (administrator keys only): list, inspect, change, revoke, and the audit log of
 * those changes. Keys are created by `POST /v1/token` (account.ts). What an administrator sees of a key is keys/admin.ts.
 */

import {
  zGetKeyPath,
  zListAuditEntriesQuery,
  zListKeysQuery,
  zUpdateKeyRequest,
} from '@modelgate/core/zod';
import type { Hono } from 'hono';
import {
  changedFields,
  keySettings,
  keyTarget,
  listAudit,
  recordAudit,
} from '../../audit/index.js';
import { conflict, notFound } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import { listKeys, toApiKey } from '../../keys/admin.js';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { actorOf, requireAdmin } from '../middleware/auth.js';
import { validatePath, validateQuery } from '../query.js';
import { readJsonBody } from '../validate.js';
import { checkKeySettings } from './key-settings.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function registerKeyRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/keys', requireAdmin(), async (c) => {
    const query = validateQuery(c, zListKeysQuery);
    // This instance's queued charges and idle leases would show as used: write and return them.
    await services.billing.returnIdleLeases();
    return c.json(await listKeys(services.db, query, nowSeconds(), timeZoneOf(services)));
  });

  app.get('/v1/keys/:key_id', requireAdmin(), async (c) => {
    const { key_id: id } = validatePath(c, zGetKeyPath);
    return c.json(await exactKey(services, id));
  });

  app.patch('/v1/keys/:key_id', requireAdmin(), async (c) => {
    const { key_id: id } = validatePath(c, zGetKeyPath);
    const body = validateBody(zUpdateKeyRequest, await readJsonBody(c));
    await checkKeySettings(services, body);
    // A lease this instance holds idle counts as used: give it back before comparing the quota.
    await services.billing.returnIdleLease(id);
    const change = {
      name: body.name,
      quota: body.quota,
      models: body.models,
      rpm: body.rpm,
      tpm: body.tpm,
      expiresAt: body.expires_at,
      budget: body.budget,
      teamId: body.team_id,
    };
    if (Object.values(change).every((value) => value === undefined)) {
      return c.json(await exactKey(services, id));
    }
    const updated = await services.db.transaction().execute(async (trx) => {
      const before = await services.keys.get(id, trx);
      const after = await services.keys.update(id, change, trx);
      if (before && after) {
        await recordAudit(trx, actorOf(c), {
          action: 'key.update',
          target: keyTarget(id),
          ...changedFields(keySettings(before), keySettings(after)),
        });
      }
      return after;
    });
    if (!updated) return refuseUpdate(services, id, body.quota);
    return c.json(toApiKey(updated, nowSeconds(), timeZoneOf(services)));
  });

  app.post('/v1/keys/:key_id/revoke', requireAdmin(), async (c) => {
    const { key_id: id } = validatePath(c, zGetKeyPath);
    if (id === c.get('key').id) {
      throw conflict(
        'This key is the one making the request; revoke it with another administrator key.',
        'revoking_own_key',
        'key_id',
      );
    }
    await services.db.transaction().execute(async (trx) => {
      const before = await services.keys.get(id, trx);
      if (!before || !(await services.keys.revoke(id, trx))) return;
      const after = await services.keys.get(id, trx);
      await recordAudit(trx, actorOf(c), {
        action: 'key.revoke',
        target: keyTarget(id),
        ...changedFields(keySettings(before), after ? keySettings(after) : {}),
      });
    });
    return c.json(await exactKey(services, id));
  });

  app.get('/v1/audit', requireAdmin(), async (c) => {
    return c.json(await listAudit(services.db, validateQuery(c, zListAuditEntriesQuery)));
  });
}

/** Why an update matched no key: there is none, it is revoked, or it used more than the new quota. */
async function refuseUpdate(
  services: Services,
  id: number,
  quota: number | undefined,
): Promise<never> {
  const record = await services.keys.get(id);
  if (!record) throw notFound(`No key ${id}.`, 'key_not_found', 'key_id');
  if (record.revokedAt !== null) throw conflict(`Key ${id} is revoked.`, 'key_revoked', 'key_id');
  throw conflict(
    `quota ${quota} is below what the key has used (${record.used} units).`,
    'quota_below_used',
    'quota',
  );
}

/** The key, its spend exact as far as this instance goes; 404 when there is none. */
async function exactKey(services: Services, id: number) {
  await services.billing.returnIdleLease(id);
  const record = await services.keys.get(id);
  if (!record) throw notFound(`No key ${id}.`, 'key_not_found', 'key_id');
  return toApiKey(record, nowSeconds(), timeZoneOf(services));
}

/** Where budget periods start (MODELGATE_BUDGET_TIME_ZONE). */
function timeZoneOf(services: Services): string {
  return services.config.budgets.timeZone;
}

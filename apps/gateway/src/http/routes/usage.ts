/**
 * Usage over time and the records behind it. A normal key reads its own; an administrator key
 * reads every key's, or one key's with `key_id`. The report is usage/report.ts, the records
 * usage/records.ts.
 */
import { zGetUsageQuery, zListUsageRecordsQuery } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import { badRequest, forbidden } from '../../errors/api-error.js';
import type { AuthKey } from '../../keys/keys.js';
import type { Services } from '../../services.js';
import { listUsageRecords } from '../../usage/records.js';
import { usageReport } from '../../usage/report.js';
import type { AppEnv } from '../env.js';
import { validateQuery } from '../query.js';

export function registerUsageRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/usage', async (c) => {
    const query = validateQuery(c, zGetUsageQuery);
    const keyId = scopedKeyId(c.get('key'), query.key_id);
    const groupBy = query.group_by ?? [];
    if (new Set(groupBy).size !== groupBy.length) {
      throw badRequest('group_by names a field twice.', 'group_by', 'invalid_value');
    }
    // Charges this instance settled but has not written yet belong in the report.
    await services.billing.flushSettlements();
    const report = await usageReport(
      services.db,
      {
        startTime: query.start_time,
        endTime: query.end_time,
        bucketWidth: query.bucket_width ?? '1d',
        groupBy,
        groupLimit: query.group_limit,
        keyId,
        model: query.model,
      },
      Math.floor(Date.now() / 1000),
    );
    return c.json(report);
  });

  app.get('/v1/usage/records', async (c) => {
    const query = validateQuery(c, zListUsageRecordsQuery);
    const keyId = scopedKeyId(c.get('key'), query.key_id);
    await services.billing.flushSettlements();
    return c.json(
      await listUsageRecords(services.db, {
        limit: query.limit,
        after: query.after,
        keyId,
        model: query.model,
        kind: query.kind,
        requestId: query.request_id,
        startTime: query.start_time,
        endTime: query.end_time,
      }),
    );
  });
}

/**
 * Whose usage a request may read: a normal key its own, whatever it names; an administrator key
 * the key it names, or every key (undefined).
 */
function scopedKeyId(key: AuthKey, requested: number | undefined): number | undefined {
  if (key.role === 'admin') return requested;
  if (requested !== undefined && requested !== key.id) {
    throw forbidden("Another key's usage needs an admin key.", 'admin_key_required');
  }
  return key.id;
}

/**
 * Usage over time. A normal key reads its own; an administrator key reads every key's, or one
 * key's with `key_id`. The report itself is usage/report.ts.
 */
import { zGetUsageQuery } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import { usageReport } from '../../usage/report.js';
import type { AppEnv } from '../env.js';
import { badRequest, forbidden } from '../errors.js';
import { validateQuery } from '../query.js';

export function registerUsageRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/usage', async (c) => {
    const query = validateQuery(c, zGetUsageQuery);
    const key = c.get('key');
    if (key.role !== 'admin' && query.key_id !== undefined && query.key_id !== key.id) {
      throw forbidden("Another key's usage needs an admin key.", 'admin_key_required');
    }
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
        keyId: key.role === 'admin' ? query.key_id : key.id,
        model: query.model,
      },
      Math.floor(Date.now() / 1000),
    );
    return c.json(report);
  });
}

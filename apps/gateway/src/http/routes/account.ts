/** Account operations: the key's balance (credit_grants) and token creation (admin). */

import type { BalanceBudget, Token } from '@modelgate/core';
import { zCreateTokenRequest } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import { keySettings, keyTarget, recordAudit } from '../../audit/index.js';
import { unitsToCredits } from '../../billing/billing.js';
import { currentBudget, type StoredBudget, storedBudget } from '../../budgets/index.js';
import { notFound } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';
import { actorOf, requireAdmin } from '../middleware/auth.js';
import { readJsonBody } from '../validate.js';
import { checkKeySettings } from './key-settings.js';

export function registerAccountRoutes(app: Hono<AppEnv>, services: Services): void {
  app.get('/v1/dashboard/billing/credit_grants', async (c) => {
    const key = c.get('key');
    // A lease this instance still holds on an idle key would show as used: give it back first.
    await services.billing.returnIdleLease(key.id);
    const record = await services.keys.get(key.id);
    if (!record) throw notFound('Key not found.');
    // Unlimited keys (the bootstrap admin) have no grant: they report usage only.
    const granted = record.quota ?? record.used;
    const available = Math.max(0, granted - record.used);
    const now = Math.floor(Date.now() / 1000);
    const timeZone = services.config.budgets.timeZone;
    const team = record.teamId === null ? null : await teamBudget(services, record.teamId);
    return c.json({
      object: 'credit_summary',
      total_granted: unitsToCredits(granted),
      total_used: unitsToCredits(record.used),
      total_available: unitsToCredits(available),
      budgets: {
        key: record.budget && toBalanceBudget(record.budget, now, timeZone),
        team: team && toBalanceBudget(team, now, timeZone),
      },
      grants: {
        object: 'list',
        data:
          record.quota === null
            ? []
            : [
                {
                  object: 'credit_grant',
                  id: `grant_${record.id}`,
                  grant_amount: unitsToCredits(record.quota),
                  used_amount: unitsToCredits(record.used),
                  effective_at: record.createdAt,
                  expires_at: record.expiresAt,
                },
              ],
      },
    });
  });

  app.post('/v1/token', requireAdmin(), async (c) => {
    const body = validateBody(zCreateTokenRequest, await readJsonBody(c));
    await checkKeySettings(services, body);
    const result = await services.db.transaction().execute(async (trx) => {
      const created = await services.keys.create(
        {
          name: body.name,
          quota: body.quota,
          models: body.models ?? null,
          rpm: body.rpm ?? null,
          tpm: body.tpm ?? null,
          expiresAt: body.expires_at ?? null,
          budget: body.budget ?? null,
          teamId: body.team_id ?? null,
        },
        trx,
      );
      const callbackSecret = await services.callbacks.createSecret(trx, created.record.id);
      await recordAudit(trx, actorOf(c), {
        action: 'key.create',
        target: keyTarget(created.record.id),
        before: null,
        after: keySettings(created.record),
      });
      return { ...created, callbackSecret };
    });
    const r = result.record;
    return c.json({
      id: r.id,
      name: r.name,
      key: result.key,
      quota: body.quota,
      created_time: r.createdAt,
      expires_at: r.expiresAt,
      models: r.models,
      rpm: r.rpm,
      tpm: r.tpm,
      callback_secret: result.callbackSecret,
    } satisfies Token);
  });
}

/** A team's budget columns; null when it has none (or is gone). */
async function teamBudget(services: Services, teamId: number): Promise<StoredBudget | null> {
  const row = await services.db
    .selectFrom('teams')
    .select([
      'budget_amount',
      'budget_period',
      'budget_spent',
      'budget_period_start',
      'budget_period_end',
    ])
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row ? storedBudget(row) : null;
}

/** A budget as the credit summary shows it: credits, its current period at `now`. */
function toBalanceBudget(budget: StoredBudget, now: number, timeZone: string): BalanceBudget {
  const current = currentBudget(budget, now, timeZone);
  return {
    amount: unitsToCredits(current.amount),
    period: current.period,
    spent: unitsToCredits(current.spent),
    available: unitsToCredits(Math.max(0, current.amount - current.spent)),
    resets_at: current.resetsAt,
  };
}

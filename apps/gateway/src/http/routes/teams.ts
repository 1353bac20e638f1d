/**
 * Teams (administrator keys only): create, list, read, change and delete; every change is audited
 * in its own transaction. A team with keys cannot be deleted (409 `team_has_keys`).
 */

import type { DeletedTeam } from '@modelgate/core';
import {
  zCreateTeamRequest,
  zGetTeamPath,
  zListTeamsQuery,
  zUpdateTeamRequest,
} from '@modelgate/core/zod';
import type { Hono } from 'hono';
import { changedFields, recordAudit, teamTarget } from '../../audit/index.js';
import { conflict, notFound } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import type { Services } from '../../services.js';
import {
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  teamSettings,
  toTeam,
  updateTeam,
} from '../../teams/teams.js';
import type { AppEnv } from '../env.js';
import { actorOf, requireAdmin } from '../middleware/auth.js';
import { validatePath, validateQuery } from '../query.js';
import { readJsonBody } from '../validate.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const noTeam = (id: number) => notFound(`No team ${id}.`, 'team_not_found', 'team_id');

export function registerTeamRoutes(app: Hono<AppEnv>, services: Services): void {
  const timeZone = services.config.budgets.timeZone;

  app.get('/v1/teams', requireAdmin(), async (c) => {
    const query = validateQuery(c, zListTeamsQuery);
    return c.json(await listTeams(services.db, query, nowSeconds(), timeZone));
  });

  app.post('/v1/teams', requireAdmin(), async (c) => {
    const body = validateBody(zCreateTeamRequest, await readJsonBody(c));
    const row = await services.db.transaction().execute(async (trx) => {
      const created = await createTeam(trx, body, nowSeconds());
      await recordAudit(trx, actorOf(c), {
        action: 'team.create',
        target: teamTarget(Number(created.id)),
        before: null,
        after: teamSettings(created),
      });
      return created;
    });
    return c.json(toTeam(row, nowSeconds(), timeZone));
  });

  app.get('/v1/teams/:team_id', requireAdmin(), async (c) => {
    const { team_id: id } = validatePath(c, zGetTeamPath);
    const row = await getTeam(services.db, id);
    if (!row) throw noTeam(id);
    return c.json(toTeam(row, nowSeconds(), timeZone));
  });

  app.patch('/v1/teams/:team_id', requireAdmin(), async (c) => {
    const { team_id: id } = validatePath(c, zGetTeamPath);
    const body = validateBody(zUpdateTeamRequest, await readJsonBody(c));
    const row = await services.db.transaction().execute(async (trx) => {
      const before = await getTeam(trx, id);
      if (!before) return undefined;
      const after = await updateTeam(trx, id, body);
      if (after) {
        await recordAudit(trx, actorOf(c), {
          action: 'team.update',
          target: teamTarget(id),
          ...changedFields(teamSettings(before), teamSettings(after)),
        });
      }
      return after;
    });
    if (!row) throw noTeam(id);
    return c.json(toTeam(row, nowSeconds(), timeZone));
  });

  app.delete('/v1/teams/:team_id', requireAdmin(), async (c) => {
    const { team_id: id } = validatePath(c, zGetTeamPath);
    const outcome = await services.db.transaction().execute(async (trx) => {
      const before = await getTeam(trx, id);
      const result = await deleteTeam(trx, id);
      if (result === 'deleted' && before) {
        await recordAudit(trx, actorOf(c), {
          action: 'team.delete',
          target: teamTarget(id),
          before: teamSettings(before),
          after: null,
        });
      }
      return result;
    });
    if (outcome === 'missing') throw noTeam(id);
    if (outcome === 'has_keys') {
      throw conflict(
        `Team ${id} still has keys; move them to another team (or none) first.`,
        'team_has_keys',
        'team_id',
      );
    }
    return c.json({ object: 'team', id, deleted: true } satisfies DeletedTeam);
  });
}

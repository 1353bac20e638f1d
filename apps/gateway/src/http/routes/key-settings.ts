/**
 * The checks a key's settings get when an administrator creates or changes a key: every model it
 * is restricted to is one the gateway serves, an expiry lies in the future, and its team exists.
 */

import { badRequest } from '../../errors/api-error.js';
import type { Services } from '../../services.js';

/**
 * @example
 * await checkKeySettings(services, { models: body.models, expires_at: body.expires_at });
 */
export async function checkKeySettings(
  services: Services,
  settings: {
    models?: readonly string[] | null;
    expires_at?: number | null;
    team_id?: number | null;
  },
): Promise<void> {
  const unknown = await unknownModelIds(services, settings.models ?? []);
  if (unknown.length > 0) {
    throw badRequest(
      `models: no such model: ${unknown.join(', ')} (GET /v1/models lists the models).`,
      'models',
      'model_not_found',
    );
  }
  const now = Math.floor(Date.now() / 1000);
  if (settings.expires_at != null && settings.expires_at <= now) {
    throw badRequest('expires_at must be in the future.', 'expires_at', 'out_of_range');
  }
  if (settings.team_id != null) {
    const team = await services.db
      .selectFrom('teams')
      .select('id')
      .where('id', '=', settings.team_id)
      .executeTakeFirst();
    if (!team) {
      throw badRequest(`team_id: no team ${settings.team_id}.`, 'team_id', 'invalid_value');
    }
  }
}

/**
 * The ids among `ids` that name no model the gateway serves (text, image or video). A text id
 * the catalogue does not know yet is looked up again (pass-through mode asks the provider).
 */
async function unknownModelIds(services: Services, ids: readonly string[]): Promise<string[]> {
  const listed = [...services.images.listModels(), ...services.video.listModels()];
  const imageOrVideo = new Set(listed.map((m) => m.id));
  const { catalog } = services.text;
  const unknown: string[] = [];
  for (const id of ids) {
    if (imageOrVideo.has(id) || catalog.resolve(id)) continue;
    if (!(await catalog.resolveFresh(id))) unknown.push(id);
  }
  return unknown;
}

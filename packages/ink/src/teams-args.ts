// `modelgate teams list|show|create|set|delete`: the arguments, checked before any request is made.
import type { CreateTeamRequest, UpdateTeamRequest } from '@modelgate/core';
import { BUDGET_HINT, budgetOrNone } from './budget-args.js';
import type { OptionValues } from './cli-options.js';
import { positiveInteger } from './numbers.js';

/** What `modelgate teams …` asked for. */
export type TeamsCommand =
  | { name: 'teams-list'; limit?: number }
  | { name: 'teams-show' | 'teams-delete'; teamId: number }
  | { name: 'teams-create'; team: CreateTeamRequest }
  | { name: 'teams-set'; teamId: number; changes: UpdateTeamRequest };

const USAGE =
  'usage: modelgate teams list | show <id> | create --name N … | set <id> … | delete <id>';
const CREATE_USAGE =
  'usage: modelgate teams create --name N [--budget CREDITS/day|week|month] [--alert-url URL]';
const SET_USAGE =
  'usage: modelgate teams set <id> [--name N] [--budget CREDITS/day|week|month|none] [--alert-url URL|none]';

/**
 * Reads the words after `teams` and the flags into a {@link TeamsCommand}, or says what is wrong.
 *
 * @example
 * ```ts
 * teamsCommand(['create'], { name: 'research', budget: '5/day' });
 * // → { name: 'teams-create', team: { name: 'research', budget: { amount: 5_000_000, period: 'day' } } }
 * ```
 */
export function teamsCommand(
  rest: string[],
  values: OptionValues,
): TeamsCommand | { message: string } {
  const [action, ...args] = rest;
  if (action === 'list') return listCommand(args, values);
  if (action === 'create')
    return args.length === 0 ? createCommand(values) : { message: CREATE_USAGE };
  if (action !== 'show' && action !== 'set' && action !== 'delete') return { message: USAGE };
  const [id, ...extra] = args;
  const teamId = id === undefined ? undefined : positiveInteger(id);
  if (teamId === undefined || extra.length > 0) {
    return { message: action === 'set' ? SET_USAGE : `usage: modelgate teams ${action} <id>` };
  }
  return action === 'set' ? setCommand(teamId, values) : { name: `teams-${action}`, teamId };
}

function listCommand(args: string[], values: OptionValues): TeamsCommand | { message: string } {
  if (args.length > 0) return { message: 'usage: modelgate teams list [--limit N]' };
  if (values.limit === undefined) return { name: 'teams-list' };
  const limit = positiveInteger(values.limit);
  return limit === undefined
    ? { message: '--limit must be a positive whole number' }
    : { name: 'teams-list', limit };
}

function createCommand(values: OptionValues): TeamsCommand | { message: string } {
  const name = values.name?.trim();
  if (!name) return { message: CREATE_USAGE };
  const fields = settings(values);
  if ('message' in fields) return fields;
  if (fields.budget === null || fields.alert_url === null) {
    return { message: 'a new team takes a budget and an alert URL, not none' };
  }
  return { name: 'teams-create', team: { name, ...fields } };
}

function setCommand(teamId: number, values: OptionValues): TeamsCommand | { message: string } {
  const changes = settings(values);
  if ('message' in changes) return changes;
  if (values.name !== undefined) {
    const name = values.name.trim();
    if (!name) return { message: '--name must not be empty' };
    changes.name = name;
  }
  return Object.keys(changes).length > 0
    ? { name: 'teams-set', teamId, changes }
    : { message: SET_USAGE };
}

/** `--budget` and `--alert-url` as the request's fields (`none`: null, to remove). */
function settings(values: OptionValues): UpdateTeamRequest | { message: string } {
  const fields: UpdateTeamRequest = {};
  if (values.budget !== undefined) {
    const budget = budgetOrNone(values.budget);
    if (budget === undefined) return { message: BUDGET_HINT };
    fields.budget = budget;
  }
  const url = values['alert-url'];
  if (url !== undefined) {
    if (url !== 'none' && !URL.canParse(url)) {
      return { message: '--alert-url must be an http(s) URL, or none' };
    }
    fields.alert_url = url === 'none' ? null : url;
  }
  return fields;
}

// `modelgate keys list|show|set|revoke`: the arguments, checked before any request is made.
import type { ApiKeyStatus, UpdateKeyRequest } from '@modelgate/core';
import { BUDGET_HINT, budgetOrNone } from './budget-args.js';
import type { OptionValues } from './cli-options.js';
import { creditsToUnits, positiveInteger, positiveNumber } from './numbers.js';

/** What `modelgate keys …` asked for. */
export type KeysCommand =
  | {
      name: 'keys-list';
      status?: ApiKeyStatus;
      /** Page size; with `all`, of each page fetched. */
      limit?: number;
      /** Follow `next_cursor` to the last page. */
      all: boolean;
    }
  | { name: 'keys-show' | 'keys-revoke'; keyId: number }
  | { name: 'keys-set'; keyId: number; changes: UpdateKeyRequest };

const SET_USAGE =
  'usage: modelgate keys set <id> [--quota CREDITS] [--rpm N|none] [--tpm N|none] [--models a,b|all] [--name N] [--expires DATE|never] [--budget CREDITS/day|week|month|none] [--team ID|none]';

/** Every `--status`; a record, so that a status the spec adds or drops fails the type check. */
const STATUSES: Record<ApiKeyStatus, true> = { active: true, revoked: true, expired: true };

/** How each flag of `keys set` becomes its field of the request (`undefined`: not valid). */
type Changes = {
  [Field in keyof UpdateKeyRequest]-?: {
    flag: 'name' | 'quota' | 'rpm' | 'tpm' | 'models' | 'expires' | 'budget' | 'team';
    parse(text: string): UpdateKeyRequest[Field] | undefined;
    hint: string;
  };
};

const CHANGES: Changes = {
  name: {
    flag: 'name',
    parse: (text) => text.trim() || undefined,
    hint: '--name must not be empty',
  },
  quota: { flag: 'quota', parse: quotaUnits, hint: '--quota must be a positive number of credits' },
  rpm: { flag: 'rpm', parse: limitOrNone, hint: '--rpm must be a whole number, or none' },
  tpm: { flag: 'tpm', parse: limitOrNone, hint: '--tpm must be a whole number, or none' },
  models: {
    flag: 'models',
    parse: modelsOrAll,
    hint: '--models must be model ids separated by commas, or all',
  },
  expires_at: {
    flag: 'expires',
    parse: expiryOrNever,
    hint: '--expires must be a date (2030-12-31 or 2030-12-31T18:00:00Z), or never',
  },
  budget: {
    flag: 'budget',
    parse: budgetOrNone,
    hint: BUDGET_HINT,
  },
  team_id: { flag: 'team', parse: limitOrNone, hint: '--team must be a team id, or none' },
};

/**
 * Reads the words after `keys` and the flags into a {@link KeysCommand}, or says what is wrong.
 *
 * @example
 * ```ts
 * keysCommand(['set', '7'], { quota: '50', rpm: 'none' });
 * // → { name: 'keys-set', keyId: 7, changes: { quota: 50_000_000, rpm: null } }
 * ```
 */
export function keysCommand(
  rest: string[],
  values: OptionValues,
): KeysCommand | { message: string } {
  const [action, ...args] = rest;
  if (action === 'list') {
    return args.length === 0
      ? listCommand(values)
      : { message: 'usage: modelgate keys list [--status S] [--limit N] [--all]' };
  }
  if (action !== 'show' && action !== 'revoke' && action !== 'set') {
    return { message: 'usage: modelgate keys list | show <id> | set <id> … | revoke <id>' };
  }
  const [id, ...extra] = args;
  const keyId = id === undefined ? undefined : positiveInteger(id);
  if (keyId === undefined || extra.length > 0) {
    return { message: action === 'set' ? SET_USAGE : `usage: modelgate keys ${action} <id>` };
  }
  return action === 'set' ? setCommand(keyId, values) : { name: `keys-${action}`, keyId };
}

function listCommand(values: OptionValues): KeysCommand | { message: string } {
  const command: KeysCommand = { name: 'keys-list', all: values.all ?? false };
  if (values.status !== undefined) {
    if (!isStatus(values.status)) {
      return { message: `--status must be one of ${Object.keys(STATUSES).join(', ')}` };
    }
    command.status = values.status;
  }
  if (values.limit !== undefined) {
    const limit = positiveInteger(values.limit);
    if (limit === undefined) return { message: '--limit must be a positive whole number' };
    command.limit = limit;
  }
  return command;
}

function setCommand(keyId: number, values: OptionValues): KeysCommand | { message: string } {
  const changes: UpdateKeyRequest = {};
  for (const [field, change] of Object.entries(CHANGES)) {
    const text = values[change.flag];
    if (text === undefined) continue;
    const value = change.parse(text);
    if (value === undefined) return { message: change.hint };
    Object.assign(changes, { [field]: value });
  }
  return Object.keys(changes).length > 0
    ? { name: 'keys-set', keyId, changes }
    : { message: SET_USAGE };
}

function isStatus(text: string): text is ApiKeyStatus {
  return Object.hasOwn(STATUSES, text);
}

/** Credits as units, like `token create`. */
function quotaUnits(text: string): number | undefined {
  const credits = positiveNumber(text);
  return credits === undefined ? undefined : creditsToUnits(credits);
}

/** `none` lifts the limit (null). */
function limitOrNone(text: string): number | null | undefined {
  return text === 'none' ? null : positiveInteger(text);
}

/** `all` lifts the allow-list (null); ids are sent once each. */
function modelsOrAll(text: string): string[] | null | undefined {
  if (text === 'all') return null;
  const ids = [...new Set(text.split(',').map((id) => id.trim()))].filter((id) => id !== '');
  return ids.length > 0 ? ids : undefined;
}

/** An ISO 8601 date or date-time (a date alone is midnight UTC) as Unix seconds; `never` is null. */
function expiryOrNever(text: string): number | null | undefined {
  if (text === 'never') return null;
  const ms = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

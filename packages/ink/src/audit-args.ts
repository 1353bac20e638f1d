// `modelgate audit`: the arguments, checked before any request is made.
import type { AuditAction, ListAuditEntriesQuery } from '@modelgate/core';
import type { OptionValues } from './cli-options.js';
import { positiveInteger } from './numbers.js';

export interface AuditCommand {
  name: 'audit';
  query: ListAuditEntriesQuery;
}

/** Every `--action`; a record, so that an action the spec adds or drops fails the type check. */
const ACTIONS: Record<AuditAction, true> = {
  'key.create': true,
  'key.update': true,
  'key.revoke': true,
  'callback_secret.rotate': true,
  'team.create': true,
  'team.update': true,
  'team.delete': true,
};

const USAGE = 'usage: modelgate audit [--key ID] [--action A] [--limit N]';

/**
 * @example
 * auditCommand([], { key: '7', action: 'key.update' });
 * // → { name: 'audit', query: { key_id: 7, action: 'key.update' } }
 */
export function auditCommand(
  rest: string[],
  values: OptionValues,
): AuditCommand | { message: string } {
  if (rest.length > 0) return { message: USAGE };
  const query: ListAuditEntriesQuery = {};
  if (values.key !== undefined) {
    const keyId = positiveInteger(values.key);
    if (keyId === undefined) return { message: '--key must be a key id (a whole number)' };
    query.key_id = keyId;
  }
  if (values.action !== undefined) {
    if (!isAuditAction(values.action)) {
      return { message: `--action must be one of ${Object.keys(ACTIONS).join(', ')}` };
    }
    query.action = values.action;
  }
  if (values.limit !== undefined) {
    const limit = positiveInteger(values.limit);
    if (limit === undefined || limit > 100) return { message: '--limit must be 1 to 100' };
    query.limit = limit;
  }
  return { name: 'audit', query };
}

function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(ACTIONS, value);
}

// `modelgate usage`: the arguments, checked before any request is made.
import type { UsageBucketWidth, UsageGroupBy } from '@modelgate/core';
import type { OptionValues } from './cli-options.js';
import { positiveInteger } from './numbers.js';

/** What `modelgate usage` asked for. */
export interface UsageCommand {
  name: 'usage';
  /** `1d` (`--days`, the default) or `1h` (`--hours`). */
  bucketWidth: UsageBucketWidth;
  /** How many buckets, the current one last. */
  buckets: number;
  groupBy: UsageGroupBy;
  keyId?: number;
  model?: string;
  /** Print the report as CSV (a row per bucket and group) instead of the table. */
  csv: boolean;
}

const USAGE_LINE =
  'usage: modelgate usage [--days N | --hours N] [--by model,key,kind,team] [--key ID] [--model M] [--csv]';

/** What `--by` takes, and the `group_by` field each one is. */
const GROUPS = new Map<string, UsageGroupBy[number]>([
  ['model', 'model'],
  ['key', 'key_id'],
  ['kind', 'kind'],
  ['team', 'team_id'],
]);

/** Days the report covers when neither `--days` nor `--hours` is given. */
const DEFAULT_DAYS = '7';

/**
 * Reads the words after `usage` and the flags into a {@link UsageCommand}, or says what is wrong.
 *
 * @example
 * ```ts
 * usageCommand([], { hours: '24', by: 'model' });
 * // → { name: 'usage', bucketWidth: '1h', buckets: 24, groupBy: ['model'], csv: false }
 * ```
 */
export function usageCommand(
  rest: string[],
  values: OptionValues,
): UsageCommand | { message: string } {
  if (rest.length > 0) return { message: USAGE_LINE };
  if (values.days !== undefined && values.hours !== undefined) {
    return { message: 'usage takes --days or --hours, not both' };
  }
  if (values.csv && values.json) return { message: 'usage takes --csv or --json, not both' };
  const hourly = values.hours !== undefined;
  const buckets = positiveInteger((hourly ? values.hours : values.days) ?? DEFAULT_DAYS);
  if (buckets === undefined) {
    return { message: `--${hourly ? 'hours' : 'days'} must be a positive whole number` };
  }
  const groupBy = groups(values.by);
  if (groupBy === undefined) {
    return { message: `--by takes ${[...GROUPS.keys()].join(', ')}, separated by commas` };
  }
  const command: UsageCommand = {
    name: 'usage',
    bucketWidth: hourly ? '1h' : '1d',
    buckets,
    groupBy,
    csv: values.csv === true,
  };
  if (values.key !== undefined) {
    const keyId = positiveInteger(values.key);
    if (keyId === undefined) return { message: '--key must be a key id (a whole number)' };
    command.keyId = keyId;
  }
  if (values.model !== undefined) command.model = values.model;
  return command;
}

/** `--by model,key` as `group_by`, each field once; `undefined` when a name is unknown. */
function groups(text: string | undefined): UsageGroupBy | undefined {
  const fields: UsageGroupBy = [];
  for (const name of text === undefined ? [] : text.split(',')) {
    const field = GROUPS.get(name.trim());
    if (field === undefined) return undefined;
    if (!fields.includes(field)) fields.push(field);
  }
  return fields;
}

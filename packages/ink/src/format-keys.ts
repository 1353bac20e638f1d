// A key as one line of `modelgate keys …`: who it is, its state and what it has spent.
import type { ApiKey } from '@modelgate/core';
import { layoutColumns } from './columns.js';
import { formatCredits } from './format.js';
import { unitsToCredits } from './numbers.js';

/**
 * A key's cells: `id  name  key_prefix  status  used/quota credits  remaining`, amounts in
 * credits; a key without a quota (the bootstrap admin key) has `unlimited` for both.
 *
 * @example
 * ```ts
 * keyCells(key); // → ['7', 'ci', 'sk-3Fq9Zp', 'active', '0.000135/5 credits', '4.999865 left']
 * ```
 */
export function keyCells(key: ApiKey): string[] {
  const used = formatCredits(unitsToCredits(key.used));
  const quota = key.quota === null ? 'unlimited' : formatCredits(unitsToCredits(key.quota));
  const remaining =
    key.remaining === null ? 'unlimited' : `${formatCredits(unitsToCredits(key.remaining))} left`;
  return [
    String(key.id),
    key.name,
    key.key_prefix,
    key.status,
    `${used}/${quota} credits`,
    remaining,
  ];
}

/**
 * Keys one a line, in columns on a terminal (`aligned`), else plain lines.
 *
 * @example
 * ```ts
 * io.stdout.write(`${formatKeyLines(list.data, io.stdout.isTTY === true).join('\n')}\n`);
 * ```
 */
export function formatKeyLines(keys: readonly ApiKey[], aligned: boolean): string[] {
  return layoutColumns(keys.map(keyCells), { aligned, right: [0] });
}

// `modelgate usage`: requests, tokens and credits per day or hour, from `GET /v1/usage`.
import {
  type ModelgateClient,
  type UsageBucketWidth,
  type UsageQuery,
  usageCsv,
} from '@modelgate/core';
import { formatUsageLines } from '../format-usage.js';
import type { UsageCommand } from '../usage-args.js';
import { type CommandIO, printResult } from './io.js';

const BUCKET_SECONDS: Record<UsageBucketWidth, number> = { '1h': 3600, '1d': 86_400 };

export interface UsageCommandInput extends Omit<UsageCommand, 'name'> {
  /** Sends the admin key (every key's usage) or a normal key (its own). */
  client: ModelgateClient;
  /** Print the gateway's report instead of the table. */
  json: boolean;
}

/**
 * Prints the usage of the last `buckets` days or hours (the current one included) as a table: a
 * line per bucket and group that has usage, then a `total` line; `json` prints the gateway's
 * report, empty buckets included; `csv` a row per bucket and group with usage, for a spreadsheet.
 *
 * @example
 * ```ts
 * const command = { bucketWidth: '1d', buckets: 7, groupBy: ['model'], csv: false } as const;
 * process.exitCode = await runUsageCommand({ client, json: false, ...command }, process);
 * ```
 */
export function runUsageCommand(input: UsageCommandInput, io: CommandIO): Promise<number> {
  return printResult(io, async () => {
    const query = usageQuery(input, Math.floor(Date.now() / 1000));
    const report = await input.client.usage.retrieve(query, { signal: io.signal });
    if (input.json) return JSON.stringify(report, null, 2);
    // printResult ends the output with a line break; the CSV already ends its last row with one.
    if (input.csv) return usageCsv(report).trimEnd();
    return formatUsageLines(report, io.stdout.isTTY === true).join('\n');
  });
}

/**
 * The query for the last `buckets` buckets: from the start of the one `buckets − 1` before the
 * current one to the end of the current one (the API widens a range to whole buckets anyway).
 */
export function usageQuery(command: Omit<UsageCommand, 'name'>, nowSeconds: number): UsageQuery {
  const width = BUCKET_SECONDS[command.bucketWidth];
  const current = nowSeconds - (nowSeconds % width);
  const query: UsageQuery = {
    bucket_width: command.bucketWidth,
    start_time: current - (command.buckets - 1) * width,
    end_time: current + width,
  };
  if (command.groupBy.length > 0) query.group_by = command.groupBy;
  if (command.keyId !== undefined) query.key_id = command.keyId;
  if (command.model !== undefined) query.model = command.model;
  return query;
}

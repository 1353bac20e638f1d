// A usage report as a table: a line per bucket and group, then the range's total.
import type { UsageBucketWidth, UsageReport, UsageResult } from '@modelgate/core';
import { layoutColumns } from './columns.js';
import { formatCount, formatCredits } from './format.js';

type Group = UsageReport['group_by'][number];

/** How many figure cells a line has: requests, tokens in, tokens out, credits. */
const FIGURES = 4;

/**
 * The report's lines: `2025-11-21  gpt-4o-mini  3 requests  21 tokens in  48 tokens out  0.001234
 * credits` for each group of each bucket that has usage (empty buckets are left out; the JSON keeps
 * them), then `total  …` for the whole range. Buckets are named by their start, in UTC: the day, or
 * the day and hour.
 *
 * @example
 * ```ts
 * io.stdout.write(`${formatUsageLines(report, io.stdout.isTTY === true).join('\n')}\n`);
 * ```
 */
export function formatUsageLines(report: UsageReport, aligned: boolean): string[] {
  const rows = report.data.flatMap((bucket) =>
    bucket.results.map((result) => [
      bucketLabel(bucket.start_time, report.bucket_width),
      ...report.group_by.map((group) => groupCell(result, group)),
      ...figureCells(result),
    ]),
  );
  const total = ['total', ...report.group_by.map(() => ''), ...figureCells(report.totals)];
  const first = 1 + report.group_by.length;
  const right = Array.from({ length: FIGURES }, (_, index) => first + index);
  return layoutColumns([...rows, total], { aligned, right });
}

function bucketLabel(startTime: number, width: UsageBucketWidth): string {
  const iso = new Date(startTime * 1000).toISOString();
  return width === '1d' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function groupCell(result: UsageResult, group: Group): string {
  if (group === 'key_id') return `key ${result.key_id ?? '-'}`;
  if (group === 'team_id') return result.team_id == null ? 'no team' : `team ${result.team_id}`;
  return result[group] ?? '-';
}

function figureCells(result: UsageResult): string[] {
  return [
    counted(result.requests, 'request'),
    `${counted(result.input_tokens, 'token')} in`,
    `${counted(result.output_tokens, 'token')} out`,
    `${formatCredits(result.cost)} credits`,
  ];
}

function counted(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

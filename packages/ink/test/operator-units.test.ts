// Pure pieces of `keys` and `usage`: their arguments, the query sent, the columns printed.
import type { UsageReport, UsageResult } from '@modelgate/core';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import { layoutColumns } from '../src/columns.js';
import { usageQuery } from '../src/commands/usage.js';
import { formatUsageLines } from '../src/format-usage.js';

function command(argv: string[]) {
  const parsed = parseCliArgs(argv);
  return parsed.ok ? parsed.command : parsed.message;
}

describe('keys arguments', () => {
  it('keys set: credits as units, none/all/never as null, an ISO date as Unix seconds', () => {
    expect(
      command(['keys', 'set', '7', '--quota', '2.5', '--rpm', 'none', '--tpm', '900']),
    ).toEqual({ name: 'keys-set', keyId: 7, changes: { quota: 2_500_000, rpm: null, tpm: 900 } });
    expect(
      command(['keys', 'set', '7', '--models', 'a, b,a', '--expires', '2030-01-01', '--name', 'x']),
    ).toEqual({
      name: 'keys-set',
      keyId: 7,
      changes: { models: ['a', 'b'], expires_at: 1_893_456_000, name: 'x' },
    });
    expect(command(['keys', 'set', '7', '--models', 'all', '--expires', 'never'])).toMatchObject({
      changes: { models: null, expires_at: null },
    });
    expect(command(['keys', 'set', '7', '--rpm', '1.5'])).toBe(
      '--rpm must be a whole number, or none',
    );
    expect(command(['keys', 'set', '7', '--expires', '31/12/2030'])).toMatch(/^--expires must/);
    expect(command(['keys', 'set', '7'])).toMatch(/^usage: modelgate keys set <id>/);
  });

  it('keys list / show / revoke', () => {
    expect(command(['keys', 'list'])).toEqual({ name: 'keys-list', all: false });
    expect(command(['keys', 'list', '--status', 'expired', '--limit', '5', '--all'])).toEqual({
      name: 'keys-list',
      status: 'expired',
      limit: 5,
      all: true,
    });
    expect(command(['keys', 'list', '--status', 'constructor'])).toMatch(/^--status must be/);
    expect(command(['keys', 'show', '12'])).toEqual({ name: 'keys-show', keyId: 12 });
    expect(command(['keys', 'revoke', '0'])).toBe('usage: modelgate keys revoke <id>');
  });
});

describe('usage arguments and query', () => {
  it('defaults to 7 days; --hours, --by, --key and --model', () => {
    expect(command(['usage'])).toEqual({
      name: 'usage',
      bucketWidth: '1d',
      buckets: 7,
      groupBy: [],
      csv: false,
    });
    expect(
      command(['usage', '--hours', '24', '--by', 'kind,key,kind', '--key', '3', '-m', 'gpt-4o']),
    ).toEqual({
      name: 'usage',
      bucketWidth: '1h',
      buckets: 24,
      groupBy: ['kind', 'key_id'],
      keyId: 3,
      model: 'gpt-4o',
      csv: false,
    });
    expect(command(['usage', '--by', 'toString'])).toMatch(/^--by takes model, key, kind/);
    expect(command(['usage', '--csv'])).toMatchObject({ name: 'usage', csv: true });
    expect(command(['usage', '--csv', '--json'])).toBe('usage takes --csv or --json, not both');
  });

  it('asks for whole buckets ending with the current one', () => {
    const now = Date.UTC(2026, 0, 10, 15, 30) / 1000;
    const day = Date.UTC(2026, 0, 10) / 1000;
    expect(usageQuery({ bucketWidth: '1d', buckets: 7, groupBy: [], csv: false }, now)).toEqual({
      bucket_width: '1d',
      start_time: day - 6 * 86_400,
      end_time: day + 86_400,
    });
    const hour = Date.UTC(2026, 0, 10, 15) / 1000;
    expect(
      usageQuery({ bucketWidth: '1h', buckets: 1, groupBy: ['model'], keyId: 3, csv: false }, hour),
    ).toEqual({
      bucket_width: '1h',
      start_time: hour,
      end_time: hour + 3600,
      group_by: ['model'],
      key_id: 3,
    });
  });
});

describe('columns', () => {
  it('pads on a terminal, joins plain cells (no empty ones, no tabs) in a pipe', () => {
    const rows = [
      ['7', 'ci', '0.5'],
      ['12', '', '10'],
    ];
    expect(layoutColumns(rows, { aligned: true, right: [0, 2] })).toEqual([
      ' 7  ci  0.5',
      '12       10',
    ]);
    expect(layoutColumns(rows, { aligned: false })).toEqual(['7  ci  0.5', '12  10']);
  });

  it('a usage table: a line per group of each bucket with usage, then the total', () => {
    const result = (model: string, requests: number, cost: number): UsageResult => ({
      object: 'usage_result',
      key_id: null,
      model,
      kind: null,
      requests,
      input_tokens: requests * 10,
      cache_read_tokens: 0,
      cache_write_5m_tokens: 0,
      cache_write_1h_tokens: 0,
      output_tokens: 1,
      video_seconds: 0,
      units: cost * 1_000_000,
      cost,
    });
    const hour = Date.UTC(2026, 0, 10, 15) / 1000;
    const report: UsageReport = {
      object: 'usage_report',
      start_time: hour,
      end_time: hour + 7200,
      bucket_width: '1h',
      group_by: ['model'],
      data: [
        { object: 'usage_bucket', start_time: hour, end_time: hour + 3600, results: [] },
        {
          object: 'usage_bucket',
          start_time: hour + 3600,
          end_time: hour + 7200,
          results: [result('gpt-4o', 12, 0.5), result('o3', 1, 0.25)],
        },
      ],
      totals: result('', 13, 0.75),
    };
    expect(formatUsageLines(report, true)).toEqual([
      '2026-01-10 16:00  gpt-4o  12 requests  120 tokens in  1 token out   0.5 credits',
      '2026-01-10 16:00  o3        1 request   10 tokens in  1 token out  0.25 credits',
      'total                     13 requests  130 tokens in  1 token out  0.75 credits',
    ]);
    expect(formatUsageLines(report, false)[2]).toBe(
      'total  13 requests  130 tokens in  1 token out  0.75 credits',
    );
  });
});

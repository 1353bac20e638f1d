import { describe, expect, it } from 'vitest';
import type { UsageReport } from '../src/index.js';
import { addUsage, emptyUsage, usageCsv } from '../src/usage.js';

describe('usage sums', () => {
  it('adds every figure and prices the summed units, keeping the grouping fields', () => {
    const into = { ...emptyUsage(), model: 'gpt-4o-mini' };
    const one = {
      ...emptyUsage(),
      model: 'other-model',
      requests: 2,
      input_tokens: 10,
      cache_read_tokens: 3,
      cache_write_5m_tokens: 4,
      cache_write_1h_tokens: 5,
      output_tokens: 20,
      video_seconds: 6,
      units: 100_001,
      cost: 0.100001,
    };
    const sum = addUsage(addUsage(into, one), one);
    expect(sum).toBe(into);
    expect(sum).toMatchObject({
      model: 'gpt-4o-mini',
      requests: 4,
      input_tokens: 20,
      cache_read_tokens: 6,
      cache_write_5m_tokens: 8,
      cache_write_1h_tokens: 10,
      output_tokens: 40,
      video_seconds: 12,
      units: 200_002,
      cost: 0.200002,
    });
  });

  it('starts every sum from zero', () => {
    const a = emptyUsage();
    addUsage(a, { ...emptyUsage(), units: 5 });
    expect(emptyUsage().units).toBe(0);
  });
});

describe('usageCsv', () => {
  const report: UsageReport = {
    object: 'usage_report',
    start_time: 0,
    end_time: 7200,
    bucket_width: '1h',
    group_by: ['model'],
    data: [
      {
        object: 'usage_bucket',
        start_time: 0,
        end_time: 3600,
        results: [
          { ...emptyUsage(), model: 'a,"b"', requests: 1, units: 5, cost: 0.000005 },
          { ...emptyUsage(), other: true, requests: 2, units: 7, cost: 0.000007 },
        ],
      },
      { object: 'usage_bucket', start_time: 3600, end_time: 7200, results: [] },
    ],
    totals: emptyUsage(),
  };

  it('writes a row per result with usage, quoting what needs it and naming the rest other', () => {
    const [header, ...rows] = usageCsv(report).split('\n');
    expect(header).toBe(
      'bucket_start,bucket_end,key_id,model,kind,team_id,requests,input_tokens,cache_read_tokens,cache_write_5m_tokens,cache_write_1h_tokens,output_tokens,video_seconds,units,cost',
    );
    expect(rows).toEqual([
      '1970-01-01T00:00:00.000Z,1970-01-01T01:00:00.000Z,,"a,""b""",,,1,0,0,0,0,0,0,5,0.000005',
      '1970-01-01T00:00:00.000Z,1970-01-01T01:00:00.000Z,,other,,,2,0,0,0,0,0,0,7,0.000007',
      '',
    ]);
  });
});

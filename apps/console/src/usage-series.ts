// A usage report (already aggregated by the gateway) as chart series: one series per group (a key,
// a team or a model), one value per bucket. Its CSV export is core's `usageCsv`.
import { addUsage, emptyUsage, type UsageReport, type UsageResult } from '@modelgate/core';

export type GroupBy = Extract<UsageReport['group_by'][number], 'key_id' | 'team_id' | 'model'>;

export interface Series {
  /** The group's label: `key 42`, `team 3` (`no team`), or the model's id. */
  label: string;
  /** Cost in credits per bucket, in the report's bucket order. */
  costs: number[];
  total: UsageResult;
}

const OTHERS: Record<GroupBy, string> = {
  key_id: 'other keys',
  team_id: 'other teams',
  model: 'other models',
};

function labelOf(result: UsageResult, by: GroupBy): string {
  if (result.other) return OTHERS[by];
  if (by === 'key_id') return `key ${result.key_id}`;
  if (by === 'team_id') return result.team_id == null ? 'no team' : `team ${result.team_id}`;
  return result.model ?? 'no model';
}

function figuresOf({ key_id, team_id, model, kind, other, ...figures }: UsageResult) {
  return figures;
}

/** The groups of the report, the most expensive first. */
export function seriesOf(report: UsageReport, by: GroupBy): Series[] {
  const series = new Map<string, Series>();
  report.data.forEach((bucket, i) => {
    for (const result of bucket.results) {
      const label = labelOf(result, by);
      let one = series.get(label);
      if (!one) {
        one = {
          label,
          costs: report.data.map(() => 0),
          // The group's fields (key, team, model, kind, other) with every figure at 0, to sum into.
          total: { ...result, ...figuresOf(emptyUsage()) },
        };
        series.set(label, one);
      }
      one.costs[i] = (one.costs[i] ?? 0) + result.cost;
      addUsage(one.total, result);
    }
  });
  return [...series.values()].sort((a, b) => b.total.units - a.total.units);
}

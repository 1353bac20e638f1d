// Usage over time (GET /v1/usage): the gateway buckets and sums; the screen picks the range, the
// bucket width and the grouping (per key, per team for an administrator, per model), draws the
// groups, and exports the report as CSV.
import { type ModelgateClient, type UsageQuery, usageCsv } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback, useMemo, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatCredits } from './format.js';
import { colourOf, UsageChart } from './UsageChart.js';
import { type GroupBy, type Series, seriesOf } from './usage-series.js';
import { useTeamNames } from './use-team-names.js';

const RANGES = {
  '24h': { label: 'last 24 hours', seconds: 86_400, bucket: '1h' },
  '7d': { label: 'last 7 days', seconds: 7 * 86_400, bucket: '1d' },
  '30d': { label: 'last 30 days', seconds: 30 * 86_400, bucket: '1d' },
} as const;

type RangeName = keyof typeof RANGES;

/** Series a chart can tell apart; the gateway sums the rest of each bucket as "other". */
const CHART_GROUPS = 12;

const GROUP_HEADINGS: Record<GroupBy, string> = { key_id: 'Key', team_id: 'Team', model: 'Model' };

export function UsageScreen({ client, admin }: { client: ModelgateClient; admin: boolean }) {
  const [range, setRange] = useState<RangeName>('24h');
  const [bucket, setBucket] = useState<'1h' | '1d'>('1h');
  const [groupBy, setGroupBy] = useState<GroupBy>(admin ? 'key_id' : 'model');
  const [keyId, setKeyId] = useState('');
  const [version, setVersion] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` moves the range's end to now
  const query = useMemo((): UsageQuery => {
    const end = Math.floor(Date.now() / 1000);
    return {
      start_time: end - RANGES[range].seconds,
      end_time: end,
      bucket_width: bucket,
      group_by: [groupBy],
      group_limit: CHART_GROUPS,
      key_id: keyId ? Number(keyId) : undefined,
    };
  }, [range, bucket, groupBy, keyId, version]);
  const load = useCallback(
    (signal: AbortSignal) => client.usage.retrieve(query, { signal }),
    [client, query],
  );
  const { data: report, error, loading } = useLoad(load);
  const series = useMemo(() => (report ? seriesOf(report, groupBy) : []), [report, groupBy]);
  // Only an administrator may read teams (and only an administrator is offered the grouping).
  const teamNames = useTeamNames(
    client,
    groupBy === 'team_id' ? series.map((s) => s.total.team_id ?? null) : [],
  );
  /** A team's group named by the team (`team 3 · research`); the other groups by their label. */
  const nameOf = (s: Series) => {
    const team = s.total.other ? undefined : s.total.team_id;
    const name = team == null ? undefined : teamNames.get(team);
    return name ? `${s.label} · ${name}` : s.label;
  };

  const download = () => {
    if (!report) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([usageCsv(report)], { type: 'text/csv' }));
    link.download = `modelgate-usage-${report.bucket_width}-${report.start_time}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <section>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Range
          <select
            name="range"
            value={range}
            onChange={(event) => {
              const next = event.target.value as RangeName;
              setRange(next);
              setBucket(RANGES[next].bucket);
            }}
          >
            {Object.entries(RANGES).map(([name, r]) => (
              <option key={name} value={name}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Buckets
          <select
            name="bucket"
            value={bucket}
            onChange={(event) => setBucket(event.target.value as '1h' | '1d')}
          >
            <option value="1h">hour</option>
            <option value="1d">day</option>
          </select>
        </label>
        <label>
          Per
          <select
            name="group"
            value={groupBy}
            onChange={(event) => setGroupBy(event.target.value as GroupBy)}
          >
            <option value="key_id">key</option>
            {admin && <option value="team_id">team</option>}
            <option value="model">model</option>
          </select>
        </label>
        {admin && (
          <label>
            Key id (empty: every key)
            <input
              name="key_id"
              inputMode="numeric"
              value={keyId}
              onChange={(event) => setKeyId(event.target.value.replace(/\D/g, ''))}
            />
          </label>
        )}
        <button type="button" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
        <button type="button" onClick={download} disabled={!report}>
          Export CSV
        </button>
      </form>
      <ErrorNote error={error} />
      {report && (
        <div aria-busy={loading}>
          <p data-testid="usage-total">
            Total: <strong>{formatCredits(report.totals.cost)}</strong> credits,{' '}
            {report.totals.requests} requests, {report.totals.input_tokens} input and{' '}
            {report.totals.output_tokens} output tokens.
          </p>
          <UsageChart report={report} series={series} />
          <table data-testid="usage-groups">
            <thead>
              <tr>
                <th>{GROUP_HEADINGS[groupBy]}</th>
                <th className="num">Requests</th>
                <th className="num">Input tokens</th>
                <th className="num">Output tokens</th>
                <th className="num">Video seconds</th>
                <th className="num">Cost (credits)</th>
              </tr>
            </thead>
            <tbody>
              {series.map((s, i) => (
                <tr key={s.label}>
                  <td>
                    <span className="swatch" style={{ background: colourOf(i) }} /> {nameOf(s)}
                  </td>
                  <td className="num">{s.total.requests}</td>
                  <td className="num">{s.total.input_tokens}</td>
                  <td className="num">{s.total.output_tokens}</td>
                  <td className="num">{s.total.video_seconds}</td>
                  <td className="num">{formatCredits(s.total.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {series.length === 0 && <p>No usage in this range.</p>}
        </div>
      )}
    </section>
  );
}

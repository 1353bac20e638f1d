// Usage of the last days or hours: a range toggle, the cost chart, the table per model.
import type { ModelgateClient } from '@modelgate/core';
import { useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { UsageChart } from './UsageChart.js';
import { UsageTable } from './UsageTable.js';
import { USAGE_RANGES, type UsageRange } from './usage-figures.js';
import { useUsage } from './use-usage.js';

/** The usage of the chosen range, split by model, as a chart and a table. */
export function UsageSection({
  client,
  version,
  whose,
}: {
  client: ModelgateClient;
  /** Changes when the usage should be read again. */
  version: number;
  /** Whose usage the gateway reports for this key, in words ("every key", "this key"). */
  whose: string;
}) {
  const [range, setRange] = useState<UsageRange>(USAGE_RANGES[0]);
  const { data: report, error, loading } = useUsage(client, range, version);

  return (
    <div className="usage">
      <header>
        <h3>Usage of {whose}</h3>
        <fieldset className="toggle" aria-label="Usage range">
          {USAGE_RANGES.map((option) => (
            <button
              key={option.id}
              type="button"
              className={option === range ? undefined : 'secondary'}
              aria-pressed={option === range}
              onClick={() => setRange(option)}
            >
              {option.label}
            </button>
          ))}
        </fieldset>
      </header>
      <ErrorNote error={error} />
      {loading && !report && <p className="hint">Loading usage…</p>}
      {report && (
        <>
          <UsageChart report={report} />
          <UsageTable report={report} />
        </>
      )}
    </div>
  );
}

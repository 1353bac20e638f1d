// The report per model over the whole range, and its totals line.
import type { UsageReport, UsageResult } from '@modelgate/core';
import { formatCredits } from './credits.js';
import { modelTotals } from './usage-figures.js';

/** Requests, tokens and cost per model over the report's range, with the report's totals. */
export function UsageTable({ report }: { report: UsageReport }) {
  const rows = modelTotals(report);
  return (
    <table className="usage-table">
      <caption>Usage per model</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col" className="num">
            Requests
          </th>
          <th scope="col" className="num">
            Input tokens
          </th>
          <th scope="col" className="num">
            Output tokens
          </th>
          <th scope="col" className="num">
            Cost (credits)
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={5} className="hint">
              Nothing used in this range.
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <UsageRow key={row.model ?? ''} label={row.model ?? '—'} result={row} />
          ))
        )}
      </tbody>
      <tfoot>
        <UsageRow label="Total" result={report.totals} testId="usage-totals" />
      </tfoot>
    </table>
  );
}

function UsageRow({
  label,
  result,
  testId,
}: {
  label: string;
  result: UsageResult;
  testId?: string;
}) {
  return (
    <tr data-testid={testId}>
      <th scope="row">{label}</th>
      <td className="num">{result.requests.toLocaleString('en-US')}</td>
      <td className="num">{result.input_tokens.toLocaleString('en-US')}</td>
      <td className="num">{result.output_tokens.toLocaleString('en-US')}</td>
      <td className="num">{formatCredits(result.cost, 2)}</td>
    </tr>
  );
}

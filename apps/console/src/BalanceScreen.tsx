import type { ModelgateClient } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback } from 'react';
import { BalanceBudgets } from './BalanceBudgets.js';
import { ErrorNote } from './ErrorNote.js';
import { formatCredits, formatTime } from './format.js';

/** The signed-in key's balance (GET /v1/dashboard/billing/credit_grants), in credits. */
export function BalanceScreen({ client }: { client: ModelgateClient }) {
  const load = useCallback(
    (signal: AbortSignal) => client.billing.creditGrants({ signal }),
    [client],
  );
  const { data, error } = useLoad(load);
  return (
    <section>
      <ErrorNote error={error} />
      {data && (
        <>
          <dl className="figures" data-testid="balance">
            <dt>Available</dt>
            <dd>{formatCredits(data.total_available)}</dd>
            <dt>Used</dt>
            <dd>{formatCredits(data.total_used)}</dd>
            <dt>Granted</dt>
            <dd>{formatCredits(data.total_granted)}</dd>
          </dl>
          <BalanceBudgets budgets={data.budgets} />
          <table>
            <caption>Grants</caption>
            <thead>
              <tr>
                <th>Grant</th>
                <th className="num">Amount</th>
                <th className="num">Used</th>
                <th>From</th>
                <th>Expires</th>
              </tr>
            </thead>
            <tbody>
              {data.grants.data.map((grant) => (
                <tr key={grant.id}>
                  <td>{grant.id}</td>
                  <td className="num">{formatCredits(grant.grant_amount)}</td>
                  <td className="num">{formatCredits(grant.used_amount)}</td>
                  <td>{formatTime(grant.effective_at)}</td>
                  <td>{formatTime(grant.expires_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

// Every key (admin key): a status filter, the table, "Load more", and what the last revoke did.
import type { ModelgateClient } from '@modelgate/core';
import { useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { KeyRow } from './KeyRow.js';
import { type KeyFilter, useKeys } from './use-keys.js';
import { type RevokeOutcome, useRevoke } from './use-revoke.js';

/** "All" and every status the API knows: a Record, so a status added to the spec cannot be missed. */
const FILTER_LABELS: Record<KeyFilter, string> = {
  all: 'All',
  active: 'Active',
  revoked: 'Revoked',
  expired: 'Expired',
};

/** Every key, newest first, page by page; `version` changes when they should be read again. */
export function KeysTable({ client, version }: { client: ModelgateClient; version: number }) {
  const [filter, setFilter] = useState<KeyFilter>('all');
  const keys = useKeys(client, filter, version);
  const revoke = useRevoke(client, keys.update);

  return (
    <div className="keys">
      <label className="inline">
        Status{' '}
        <select
          aria-label="Key status"
          value={filter}
          onChange={(e) => setFilter(isFilter(e.target.value) ? e.target.value : 'all')}
        >
          {Object.entries(FILTER_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={keys.error} />
      <table>
        <caption>Keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Used / quota (credits)
            </th>
            <th scope="col" className="num">
              Remaining
            </th>
            <th scope="col">Created</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {keys.keys.map((key) => (
            <KeyRow
              key={key.id}
              apiKey={key}
              revoking={revoke.revoking === key.id}
              onRevoke={revoke.revoke}
            />
          ))}
        </tbody>
      </table>
      {keys.loading && <p className="hint">Loading keys…</p>}
      {keys.hasMore && (
        <button type="button" className="secondary" onClick={keys.loadMore} disabled={keys.loading}>
          Load more
        </button>
      )}
      <div aria-live="polite" data-testid="revoke-result">
        {revoke.outcome && <RevokeResult outcome={revoke.outcome} />}
      </div>
    </div>
  );
}

function RevokeResult({ outcome }: { outcome: RevokeOutcome }) {
  if (outcome.error) return <ErrorNote error={outcome.error} />;
  return (
    <p className="hint">
      Revoked <strong>{outcome.key.name}</strong> (<code>{outcome.key.key_prefix}…</code>): it is
      refused from now on.
    </p>
  );
}

function isFilter(value: string): value is KeyFilter {
  return Object.hasOwn(FILTER_LABELS, value);
}

// One key in the operator's table, with a Revoke button that asks for confirmation first.
import type { ApiKey } from '@modelgate/core';
import { useState } from 'react';
import { formatUnits } from './credits.js';

/** A key's figures in credits, and Revoke (after a confirm) while it is active. */
export function KeyRow({
  apiKey,
  revoking,
  onRevoke,
}: {
  apiKey: ApiKey;
  /** This key's revoke is on its way. */
  revoking: boolean;
  onRevoke: (key: ApiKey) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const created = new Date(apiKey.created_at * 1000).toISOString();
  return (
    <tr data-key-id={apiKey.id}>
      <td>{apiKey.name}</td>
      <td>
        <code>{apiKey.key_prefix}…</code>
      </td>
      <td>
        <span className={`key-status ${apiKey.status}`}>{apiKey.status}</span>
      </td>
      <td className="num">
        {formatUnits(apiKey.used)} / {formatUnits(apiKey.quota)}
      </td>
      <td className="num">{formatUnits(apiKey.remaining)}</td>
      <td>
        <time dateTime={created}>{created.slice(0, 10)}</time>
      </td>
      <td className="row-actions">
        {apiKey.status === 'active' &&
          (confirming ? (
            <>
              <button
                type="button"
                className="danger"
                aria-label={`Confirm revoking ${apiKey.name}`}
                onClick={() => {
                  setConfirming(false);
                  onRevoke(apiKey);
                }}
              >
                Confirm
              </button>
              <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className="secondary"
              aria-label={`Revoke ${apiKey.name}`}
              disabled={revoking}
              onClick={() => setConfirming(true)}
            >
              {revoking ? 'Revoking…' : 'Revoke'}
            </button>
          ))}
      </td>
    </tr>
  );
}

// The audit log (GET /v1/audit, administrator): who changed which key, when, and each value
// before → after; filtered by key and action. The log is read-only: nothing here edits it.
import type { AuditAction, AuditEntry, ModelgateClient } from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatTime } from './format.js';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

/** Every action, in the order the select lists them; a record so the spec's list is checked. */
const ACTIONS: Record<AuditAction, string> = {
  'key.create': 'Key created',
  'key.update': 'Key changed',
  'key.revoke': 'Key revoked',
  'callback_secret.rotate': 'Callback secret rotated',
  'team.create': 'Team created',
  'team.update': 'Team changed',
  'team.delete': 'Team deleted',
};

/** How an entry's target reads: `key 42`, `callback secret of key 42`, `team 3`. */
const TARGETS: Record<AuditEntry['target']['type'], string> = {
  key: 'key',
  callback_secret: 'callback secret of key',
  team: 'team',
};

export function AuditScreen({ client }: { client: ModelgateClient }) {
  const [keyInput, setKeyInput] = useState('');
  const [keyId, setKeyId] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [version, setVersion] = useState(0);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.audit.list(
        {
          limit: 20,
          after,
          key_id: keyId ? Number(keyId) : undefined,
          action: action || undefined,
        },
        { signal },
      ),
    [client, keyId, action],
  );
  const pages = usePages(fetchPage, version);

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setKeyId(keyInput.trim());
        }}
      >
        <label>
          Key id
          <input
            name="key_id"
            inputMode="numeric"
            value={keyInput}
            onChange={(event) => setKeyInput(event.target.value.replace(/\D/g, ''))}
          />
        </label>
        <label>
          Action
          <select
            name="action"
            value={action}
            onChange={(event) => setAction(event.target.value as AuditAction | '')}
          >
            <option value="">Any</option>
            {Object.entries(ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </form>
      <ErrorNote error={pages.error} />
      <table data-testid="audit" aria-busy={pages.loading}>
        <thead>
          <tr>
            <th>When (UTC)</th>
            <th>Action</th>
            <th>Target</th>
            <th>By key</th>
            <th>Change</th>
            <th>Request</th>
          </tr>
        </thead>
        <tbody>
          {pages.data?.data.map((entry) => (
            <tr key={entry.id}>
              <td>{formatTime(entry.created_at)}</td>
              <td>{ACTIONS[entry.action]}</td>
              <td>
                {TARGETS[entry.target.type]} {entry.target.id}
              </td>
              <td>{entry.actor_key_id}</td>
              <td>
                <ul className="changes">
                  {changes(entry).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </td>
              <td>
                <code>{entry.request_id ?? '—'}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data?.data.length === 0 && <p>No audit entries.</p>}
      <Pager pages={pages} label="Audit entries" />
    </section>
  );
}

/** Each value the entry records, as `name: before → after` (a creation: `name: value`). */
function changes(entry: AuditEntry): string[] {
  const after = entry.after ?? {};
  return Object.keys(after).map((name) =>
    entry.before === null
      ? `${name}: ${show(after[name])}`
      : `${name}: ${show(entry.before[name])} → ${show(after[name])}`,
  );
}

function show(value: unknown): string {
  if (typeof value === 'number' && value > 1_000_000_000 && value < 10_000_000_000) {
    return formatTime(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

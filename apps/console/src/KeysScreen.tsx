// Keys (administrator): a server-paginated list filtered by state and searched by name, a form to
// create one (its secret shown once), and per key: edit, top up, revoke.
import {
  type ApiKey,
  type ApiKeyStatus,
  asModelgateError,
  type ModelgateClient,
  type ModelgateError,
  type Token,
} from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatBudget, formatTime, formatUnits, UNITS_PER_CREDIT } from './format.js';
import { KeyForm } from './KeyForm.js';
import { Pager } from './Pager.js';
import { SecretBox } from './SecretBox.js';
import { usePages } from './use-pages.js';

const PAGE_SIZE = 20;

type Panel = { kind: 'create' } | { kind: 'edit'; key: ApiKey } | undefined;

export function KeysScreen({ client }: { client: ModelgateClient }) {
  const [status, setStatus] = useState<ApiKeyStatus | ''>('');
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [version, setVersion] = useState(0);
  const [panel, setPanel] = useState<Panel>();
  const [created, setCreated] = useState<Token>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ModelgateError>();
  const [notice, setNotice] = useState<string>();

  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.keys.list(
        { limit: PAGE_SIZE, after, status: status || undefined, name: name || undefined },
        { signal },
      ),
    [client, status, name],
  );
  const pages = usePages(fetchPage, version);

  /** Runs one change; on success reads the page again and says what happened. */
  const act = async (run: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await run());
      setPanel(undefined);
      setVersion((v) => v + 1);
    } catch (caught) {
      setError(asModelgateError(caught));
    } finally {
      setBusy(false);
    }
  };

  const topUp = (key: ApiKey) => {
    const amount = prompt(`Credits to add to "${key.name}":`, '10');
    if (!amount || key.quota === null) return;
    const quota = key.quota + Math.round(Number(amount) * UNITS_PER_CREDIT);
    void act(async () => {
      await client.keys.update(key.id, { quota });
      return `Key ${key.id} topped up to ${formatUnits(quota)} credits.`;
    });
  };
  const revoke = (key: ApiKey) => {
    if (!confirm(`Revoke key ${key.id} "${key.name}"? It stops working at once, for good.`)) return;
    void act(async () => {
      await client.keys.revoke(key.id);
      return `Key ${key.id} revoked.`;
    });
  };

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setName(search.trim());
        }}
      >
        <label>
          Status
          <select
            name="status"
            value={status}
            onChange={(event) => setStatus(event.target.value as ApiKeyStatus | '')}
          >
            <option value="">all</option>
            <option value="active">active</option>
            <option value="revoked">revoked</option>
            <option value="expired">expired</option>
          </select>
        </label>
        <label>
          Name contains
          <input name="name" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <button type="submit">Search</button>
        <button type="button" onClick={() => setPanel({ kind: 'create' })}>
          New key
        </button>
      </form>

      {created && <SecretBox token={created} onDone={() => setCreated(undefined)} />}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorNote error={error} />
      {panel?.kind === 'create' && (
        <KeyForm
          mode="create"
          client={client}
          busy={busy}
          onCancel={() => setPanel(undefined)}
          onSubmit={(body) =>
            void act(async () => {
              setCreated(await client.tokens.create(body));
              return `Key "${body.name}" created.`;
            })
          }
        />
      )}
      {panel?.kind === 'edit' && (
        <KeyForm
          key={panel.key.id}
          mode="edit"
          client={client}
          apiKey={panel.key}
          busy={busy}
          onCancel={() => setPanel(undefined)}
          onSubmit={(body) =>
            void act(async () => {
              await client.keys.update(panel.key.id, body);
              return `Key ${panel.key.id} saved.`;
            })
          }
        />
      )}

      <ErrorNote error={pages.error} />
      <table data-testid="keys" aria-busy={pages.loading}>
        <thead>
          <tr>
            <th>Id</th>
            <th>Name</th>
            <th>Prefix</th>
            <th>Role</th>
            <th>Status</th>
            <th className="num">Quota</th>
            <th className="num">Used</th>
            <th className="num">Remaining</th>
            <th>Budget spent / amount</th>
            <th>Team</th>
            <th>Models</th>
            <th>RPM / TPM</th>
            <th>Expires</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {pages.data?.data.map((key) => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.id}</td>
              <td>{key.name}</td>
              <td>
                <code>{key.key_prefix}</code>
              </td>
              <td>{key.role}</td>
              <td className={`status ${key.status}`}>{key.status}</td>
              <td className="num">{formatUnits(key.quota)}</td>
              <td className="num">{formatUnits(key.used)}</td>
              <td className="num">{formatUnits(key.remaining)}</td>
              <td data-testid="key-budget">{formatBudget(key.budget)}</td>
              <td>{key.team_id ?? '—'}</td>
              <td>{key.models?.join(', ') ?? 'all'}</td>
              <td>
                {key.rpm ?? '∞'} / {key.tpm ?? '∞'}
              </td>
              <td>{formatTime(key.expires_at)}</td>
              <td>
                {key.status !== 'revoked' && (
                  <span className="actions">
                    <button type="button" onClick={() => setPanel({ kind: 'edit', key })}>
                      Edit
                    </button>
                    {key.quota !== null && (
                      <button type="button" onClick={() => topUp(key)}>
                        Top up
                      </button>
                    )}
                    <button type="button" className="danger" onClick={() => revoke(key)}>
                      Revoke
                    </button>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data?.data.length === 0 && <p>No keys match.</p>}
      <Pager pages={pages} label="Keys" />
    </section>
  );
}

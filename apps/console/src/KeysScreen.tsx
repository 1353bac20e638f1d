// Keys (administrator): a server-paginated list filtered by state and searched by name, a form to
// create one (its secret shown once), and per key: edit, top up, revoke. A key's team is named and
// links to it on the Teams screen.
import type { ApiKey, ApiKeyStatus, ModelgateClient, Token } from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ChangeOutcome } from './ChangeOutcome.js';
import { ErrorNote } from './ErrorNote.js';
import { formatBudget, formatTime, formatUnits, UNITS_PER_CREDIT } from './format.js';
import { KeyForm } from './KeyForm.js';
import { Pager } from './Pager.js';
import { SecretBox } from './SecretBox.js';
import { useChange } from './use-change.js';
import { usePages } from './use-pages.js';
import { useTeamNames } from './use-team-names.js';

const PAGE_SIZE = 20;

type Panel = { kind: 'create' } | { kind: 'edit'; key: ApiKey } | undefined;

export function KeysScreen({
  client,
  onOpenTeam,
}: {
  client: ModelgateClient;
  /** Shows the team of this name on the Teams screen. */
  onOpenTeam(name: string): void;
}) {
  const [status, setStatus] = useState<ApiKeyStatus | ''>('');
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [panel, setPanel] = useState<Panel>();
  const [created, setCreated] = useState<Token>();
  const change = useChange(() => setPanel(undefined));

  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.keys.list(
        { limit: PAGE_SIZE, after, status: status || undefined, name: name || undefined },
        { signal },
      ),
    [client, status, name],
  );
  const pages = usePages(fetchPage, change.version);
  const teamNames = useTeamNames(client, pages.data?.data.map((key) => key.team_id) ?? []);

  const topUp = (key: ApiKey) => {
    const amount = prompt(`Credits to add to "${key.name}":`, '10');
    if (!amount || key.quota === null) return;
    const quota = key.quota + Math.round(Number(amount) * UNITS_PER_CREDIT);
    void change.run(async () => {
      await client.keys.update(key.id, { quota });
      return `Key ${key.id} topped up to ${formatUnits(quota)} credits.`;
    });
  };
  const revoke = (key: ApiKey) => {
    if (!confirm(`Revoke key ${key.id} "${key.name}"? It stops working at once, for good.`)) return;
    void change.run(async () => {
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
      <ChangeOutcome change={change} />
      {panel?.kind === 'create' && (
        <KeyForm
          mode="create"
          client={client}
          busy={change.busy}
          onCancel={() => setPanel(undefined)}
          onSubmit={(body) =>
            void change.run(async () => {
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
          busy={change.busy}
          onCancel={() => setPanel(undefined)}
          onSubmit={(body) =>
            void change.run(async () => {
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
              <td data-testid="key-team">
                {key.team_id === null ? (
                  '—'
                ) : (
                  <TeamLink
                    name={teamNames.get(key.team_id)}
                    id={key.team_id}
                    onOpen={onOpenTeam}
                  />
                )}
              </td>
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

/** A key's team by name, opening it on the Teams screen; its id until the name is read. */
function TeamLink({
  name,
  id,
  onOpen,
}: {
  name: string | undefined;
  id: number;
  onOpen(name: string): void;
}) {
  if (name === undefined) return <>team {id}</>;
  return (
    <a
      href={`/console/teams?${new URLSearchParams({ name })}`}
      data-team-id={id}
      onClick={(event) => {
        event.preventDefault();
        onOpen(name);
      }}
    >
      {name}
    </a>
  );
}

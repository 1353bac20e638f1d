// Teams (administrator): each team's shared budget, what it has spent this period and when that
// resets, how many keys it has; searched by name on the server (the name is in the address, so the
// Keys screen links to a team); create one, edit its budget, delete it (409 while it has keys).
import type { ModelgateClient, Team } from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ChangeOutcome } from './ChangeOutcome.js';
import { ErrorNote } from './ErrorNote.js';
import { formatBudget, formatTime } from './format.js';
import { Pager } from './Pager.js';
import { TeamForm } from './TeamForm.js';
import { useChange } from './use-change.js';
import { usePages } from './use-pages.js';

type Panel = { kind: 'create' } | { kind: 'edit'; team: Team } | undefined;

export function TeamsScreen({
  client,
  params,
  onFilter,
}: {
  client: ModelgateClient;
  /** The name searched for, from the address bar (`?name=`). */
  params: URLSearchParams;
  onFilter(params: Record<string, string>): void;
}) {
  const name = params.get('name') ?? '';
  const [search, setSearch] = useState(name);
  const [panel, setPanel] = useState<Panel>();
  const change = useChange(() => setPanel(undefined));
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.teams.list({ limit: 20, after, name: name || undefined }, { signal }),
    [client, name],
  );
  const pages = usePages(fetchPage, change.version);

  const remove = (team: Team) => {
    if (!confirm(`Delete team ${team.id} "${team.name}"?`)) return;
    void change.run(async () => {
      await client.teams.delete(team.id);
      return `Team ${team.id} deleted.`;
    });
  };

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          const text = search.trim();
          onFilter(text ? { name: text } : {});
        }}
      >
        <label>
          Name contains
          <input name="name" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <button type="submit">Search</button>
        <button type="button" onClick={() => setPanel({ kind: 'create' })}>
          New team
        </button>
        <button type="button" className="secondary" onClick={change.reload}>
          Refresh
        </button>
      </form>
      <ChangeOutcome change={change} />
      {panel && (
        <TeamForm
          key={panel.kind === 'edit' ? panel.team.id : 'new'}
          team={panel.kind === 'edit' ? panel.team : undefined}
          busy={change.busy}
          onCancel={() => setPanel(undefined)}
          onSubmit={(body) =>
            void change.run(async () => {
              if (panel.kind === 'create') {
                const team = await client.teams.create(body);
                return `Team "${team.name}" created (id ${team.id}).`;
              }
              await client.teams.update(panel.team.id, body);
              return `Team ${panel.team.id} saved.`;
            })
          }
        />
      )}
      <ErrorNote error={pages.error} />
      <TeamsTable
        teams={pages.data?.data}
        loading={pages.loading}
        onEdit={(team) => setPanel({ kind: 'edit', team })}
        onDelete={remove}
      />
      {pages.data?.data.length === 0 && <p>{name ? 'No team matches.' : 'No teams yet.'}</p>}
      <Pager pages={pages} label="Teams" />
    </section>
  );
}

function TeamsTable({
  teams,
  loading,
  onEdit,
  onDelete,
}: {
  teams: Team[] | undefined;
  loading: boolean;
  onEdit(team: Team): void;
  onDelete(team: Team): void;
}) {
  return (
    <table data-testid="teams" aria-busy={loading}>
      <thead>
        <tr>
          <th>Id</th>
          <th>Name</th>
          <th>Budget spent / amount</th>
          <th>Resets (UTC)</th>
          <th className="num">Keys</th>
          <th>Alert URL</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {teams?.map((team) => (
          <tr key={team.id} data-team-id={team.id}>
            <td>{team.id}</td>
            <td>{team.name}</td>
            <td data-testid="team-budget">{formatBudget(team.budget)}</td>
            <td>{formatTime(team.budget?.resets_at ?? null)}</td>
            <td className="num">{team.keys}</td>
            <td className="url">{team.alert_url ?? 'default'}</td>
            <td>
              <span className="actions">
                <button type="button" onClick={() => onEdit(team)}>
                  Edit
                </button>
                <button type="button" className="danger" onClick={() => onDelete(team)}>
                  Delete
                </button>
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

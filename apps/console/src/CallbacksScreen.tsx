// Callback deliveries of the signed-in key's tasks (GET /v1/callbacks/deliveries), or for an
// administrator another key's or the budget alerts': where each went, its state, and every attempt
// with its status code, latency and error; a delivered or failed one can be sent again
// (POST …/redeliver).
import {
  asModelgateError,
  type CallbackDelivery,
  type ListCallbackDeliveriesQuery,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatTime } from './format.js';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

type Kind = NonNullable<ListCallbackDeliveriesQuery['kind']>;

function hintOf(kind: Kind, keyId: string): string {
  if (kind === 'budget_alert')
    return 'The budget alerts of every key and team, with every attempt.';
  return keyId
    ? `The callbacks of key ${keyId}'s tasks, with every attempt.`
    : "The callbacks of this key's tasks, with every attempt.";
}

export function CallbacksScreen({
  client,
  readOnly,
}: {
  client: ModelgateClient;
  readOnly: boolean;
}) {
  const [actionError, setActionError] = useState<ModelgateError>();
  const [notice, setNotice] = useState<string>();
  const [taskInput, setTaskInput] = useState('');
  const [taskId, setTaskId] = useState('');
  const [keyInput, setKeyInput] = useState('');
  const [keyId, setKeyId] = useState('');
  const [kind, setKind] = useState<Kind>('task');
  const [version, setVersion] = useState(0);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.callbacks.deliveries.list(
        {
          limit: 20,
          after,
          task_id: taskId || undefined,
          ...(kind === 'budget_alert' ? { kind } : { key_id: keyId ? Number(keyId) : undefined }),
        },
        { signal },
      ),
    [client, taskId, keyId, kind],
  );
  const pages = usePages(fetchPage, version);
  const redeliver = (delivery: CallbackDelivery) => {
    setActionError(undefined);
    setNotice(undefined);
    client.callbacks.deliveries.redeliver(delivery.id).then(
      () => {
        setNotice(`Delivery ${delivery.id} is sent again.`);
        setVersion((v) => v + 1);
      },
      (caught: unknown) => setActionError(asModelgateError(caught)),
    );
  };

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setTaskId(taskInput.trim());
          setKeyId(keyInput.trim());
        }}
      >
        <label>
          Task id
          <input
            name="task_id"
            value={taskInput}
            onChange={(event) => setTaskInput(event.target.value)}
          />
        </label>
        {!readOnly && (
          <label>
            Show
            <select
              name="kind"
              value={kind}
              onChange={(event) => setKind(event.target.value as Kind)}
            >
              <option value="task">task callbacks</option>
              <option value="budget_alert">budget alerts</option>
            </select>
          </label>
        )}
        {!readOnly && kind === 'task' && (
          <label>
            Key id (empty: this key)
            <input
              name="key_id"
              inputMode="numeric"
              value={keyInput}
              onChange={(event) => setKeyInput(event.target.value.replace(/\D/g, ''))}
            />
          </label>
        )}
        <button type="submit">Filter</button>
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </form>
      <p className="hint">{hintOf(kind, keyId)}</p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorNote error={actionError} />
      <ErrorNote error={pages.error} />
      <table data-testid="deliveries" aria-busy={pages.loading}>
        <thead>
          <tr>
            <th>Delivery</th>
            <th>{kind === 'budget_alert' ? 'Budget' : 'Task'}</th>
            <th>Event</th>
            <th>URL</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Next attempt (UTC)</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {pages.data?.data.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.id}</code>
              </td>
              <td>
                <code>{d.task_id}</code>
              </td>
              <td>{d.event_type}</td>
              <td className="url">{d.url}</td>
              <td className={`status ${d.status}`}>{d.status}</td>
              <td>
                <ol className="attempts">
                  {d.attempts.map((a) => (
                    <li key={a.at}>
                      {formatTime(a.at)} · {a.status_code ?? 'no answer'} · {a.latency_ms} ms
                      {a.error ? ` · ${a.error}` : ''}
                    </li>
                  ))}
                </ol>
              </td>
              <td>{formatTime(d.next_attempt_at)}</td>
              <td>
                {!readOnly && (kind === 'budget_alert' || !keyId) && d.status !== 'pending' && (
                  <button type="button" onClick={() => redeliver(d)}>
                    Redeliver
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data?.data.length === 0 && <p>No callback deliveries.</p>}
      <Pager pages={pages} label="Callback deliveries" />
    </section>
  );
}

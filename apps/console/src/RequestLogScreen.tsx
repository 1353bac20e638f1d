// The request log (GET /v1/usage/records): the charges behind the usage figures, newest first,
// filtered on the server by key, model, kind and time; one request opened by its x-request-id.
import type {
  ListUsageRecordsQuery,
  ModelgateClient,
  UsageKind,
  UsageRecord,
} from '@modelgate/core';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatCredits, formatTime, parseUtc } from './format.js';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

const PAGE_SIZE = 50;
const KINDS: UsageKind[] = ['text', 'image', 'video', 'embedding', 'adjustment'];
const FILTERS = ['key_id', 'model', 'kind', 'from', 'to', 'request_id'] as const;
type Filter = (typeof FILTERS)[number];

function queryOf(params: URLSearchParams): ListUsageRecordsQuery {
  const get = (name: Filter) => params.get(name) || undefined;
  const keyId = get('key_id');
  return {
    limit: PAGE_SIZE,
    key_id: keyId ? Number(keyId) : undefined,
    model: get('model'),
    kind: get('kind') as UsageKind | undefined,
    request_id: get('request_id'),
    start_time: parseUtc(get('from') ?? ''),
    end_time: parseUtc(get('to') ?? ''),
  };
}

export function RequestLogScreen({
  client,
  admin,
  params,
  onFilter,
}: {
  client: ModelgateClient;
  admin: boolean;
  /** The filters, from the address bar: a filtered log can be bookmarked. */
  params: URLSearchParams;
  onFilter(params: Record<string, string>): void;
}) {
  const asked = params.toString();
  const [form, setForm] = useState<Record<Filter, string>>(
    () =>
      Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<Filter, string>,
  );
  const [version, setVersion] = useState(0);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.usage.records.list({ ...queryOf(new URLSearchParams(asked)), after }, { signal }),
    [client, asked],
  );
  const pages = usePages(fetchPage, version);
  const opened = params.get('request_id');
  const apply = (next: Record<Filter, string>) => {
    setForm(next);
    onFilter(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== '')));
  };
  const input = (name: Filter) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [name]: event.target.value })),
  });

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply(form);
        }}
      >
        {admin && (
          <label>
            Key id
            <input inputMode="numeric" {...input('key_id')} />
          </label>
        )}
        <label>
          Model
          <input {...input('model')} />
        </label>
        <label>
          Kind
          <select {...input('kind')}>
            <option value="">all</option>
            {KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input type="datetime-local" {...input('from')} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" {...input('to')} />
        </label>
        <label>
          x-request-id
          <input {...input('request_id')} placeholder="req_…" />
        </label>
        <button type="submit">Filter</button>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            apply({ key_id: '', model: '', kind: '', from: '', to: '', request_id: '' })
          }
        >
          Clear
        </button>
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </form>
      <ErrorNote error={pages.error} />
      {opened && pages.data && <RequestDetail id={opened} record={pages.data.data[0]} />}
      <table data-testid="records" aria-busy={pages.loading}>
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Key</th>
            <th>Kind</th>
            <th>Model</th>
            <th className="num">In</th>
            <th className="num">Out</th>
            <th className="num">Video s</th>
            <th className="num">Cost (credits)</th>
            <th>x-request-id</th>
          </tr>
        </thead>
        <tbody>
          {pages.data?.data.map((r) => (
            <tr key={r.id}>
              <td>{formatTime(r.created_at)}</td>
              <td>{r.key_id}</td>
              <td>{r.kind}</td>
              <td>{r.model ?? '—'}</td>
              <td className="num">{r.input_tokens ?? '—'}</td>
              <td className="num">{r.output_tokens ?? '—'}</td>
              <td className="num">{r.video_seconds ?? '—'}</td>
              <td className="num">{formatCredits(r.cost)}</td>
              <td>
                {r.request_id ? (
                  <a
                    href={`/console/log?request_id=${encodeURIComponent(r.request_id)}`}
                    onClick={(event) => {
                      event.preventDefault();
                      apply({
                        key_id: '',
                        model: '',
                        kind: '',
                        from: '',
                        to: '',
                        request_id: r.request_id ?? '',
                      });
                    }}
                  >
                    <code>{r.request_id}</code>
                  </a>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data?.data.length === 0 && <p>No requests match.</p>}
      <Pager pages={pages} label="Request log" />
    </section>
  );
}

/** Everything recorded about one request. */
function RequestDetail({ id, record }: { id: string; record: UsageRecord | undefined }) {
  if (!record) return <p role="status">No charge was recorded for request {id}.</p>;
  return (
    <article className="detail" data-testid="request-detail" aria-label={`Request ${id}`}>
      <h2>
        Request <code>{id}</code>
      </h2>
      <dl>
        <dt>Charged at (UTC)</dt>
        <dd>{formatTime(record.created_at)}</dd>
        <dt>Key</dt>
        <dd>{record.key_id}</dd>
        <dt>Kind</dt>
        <dd>{record.kind}</dd>
        <dt>Model</dt>
        <dd>{record.model ?? '—'}</dd>
        <dt>Tokens in / out</dt>
        <dd>
          {record.input_tokens ?? '—'} / {record.output_tokens ?? '—'}
        </dd>
        <dt>Video seconds</dt>
        <dd>{record.video_seconds ?? '—'}</dd>
        <dt>Cost</dt>
        <dd>
          {formatCredits(record.cost)} credits ({record.units} units)
        </dd>
        <dt>Video task</dt>
        <dd>{record.task_id ?? '—'}</dd>
      </dl>
    </article>
  );
}

// Video tasks of the signed-in key (GET /v1/video/generations): state and progress, newest first;
// one task opened is followed with @modelgate/react's useVideoTask until it ends, previewed when
// it completes, and can be cancelled while it runs.
import type { ModelgateClient, VideoTaskStatus } from '@modelgate/core';
import { useVideoTask } from '@modelgate/react';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatTime } from './format.js';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

const STATUSES: VideoTaskStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];

export function TasksScreen({ client, readOnly }: { client: ModelgateClient; readOnly: boolean }) {
  const [status, setStatus] = useState<VideoTaskStatus | ''>('');
  const [opened, setOpened] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.video.generations.list({ limit: 20, after, status: status || undefined }, { signal }),
    [client, status],
  );
  const pages = usePages(fetchPage, version);

  return (
    <section>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select
            name="status"
            value={status}
            onChange={(event) => setStatus(event.target.value as VideoTaskStatus | '')}
          >
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </form>
      <p className="hint">The tasks this key created.</p>
      {opened && (
        <TaskPreview
          client={client}
          taskId={opened}
          readOnly={readOnly}
          onChange={() => setVersion((v) => v + 1)}
        />
      )}
      <ErrorNote error={pages.error} />
      <table data-testid="tasks" aria-busy={pages.loading}>
        <thead>
          <tr>
            <th>Task</th>
            <th>Model</th>
            <th>Status</th>
            <th className="num">Progress</th>
            <th>Created (UTC)</th>
            <th>Finished (UTC)</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {pages.data?.data.map((task) => (
            <tr key={task.task_id}>
              <td>
                <code>{task.task_id}</code>
              </td>
              <td>{task.model}</td>
              <td className={`status ${task.status}`}>
                {task.error ? `${task.status}: ${task.error.message}` : task.status}
              </td>
              <td className="num">{task.progress}%</td>
              <td>{formatTime(task.created_at)}</td>
              <td>{formatTime(task.completed_at)}</td>
              <td>
                <button type="button" onClick={() => setOpened(task.task_id)}>
                  Open
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pages.data?.data.length === 0 && <p>No video tasks.</p>}
      <Pager pages={pages} label="Video tasks" />
    </section>
  );
}

function TaskPreview({
  client,
  taskId,
  readOnly,
  onChange,
}: {
  client: ModelgateClient;
  taskId: string;
  readOnly: boolean;
  onChange(): void;
}) {
  const { task, status, progress, videoUrl, error, isFinal, cancel } = useVideoTask({
    client,
    taskId,
    onFinish: onChange,
  });
  return (
    <article className="detail" data-testid="task-detail" aria-label={`Task ${taskId}`}>
      <h2>
        Task <code>{taskId}</code>
      </h2>
      <p>
        {task?.model} · <strong>{status ?? 'loading'}</strong> · {progress}%
        {task?.error ? ` · ${task.error.code}: ${task.error.message}` : ''}
      </p>
      <ErrorNote error={error} />
      {videoUrl && (
        // biome-ignore lint/a11y/useMediaCaption: generated videos have no captions
        <video src={videoUrl} controls width={480} />
      )}
      {!readOnly && !isFinal && (
        <button type="button" className="danger" onClick={() => void cancel().then(onChange)}>
          Cancel task
        </button>
      )}
    </article>
  );
}

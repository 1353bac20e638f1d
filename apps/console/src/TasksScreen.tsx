// Video tasks (GET /v1/video/generations): the signed-in key's, or with an administrator key any
// key's (`key_id`), with state and progress, newest first. One of the key's own tasks opened is
// followed with @modelgate/react's useVideoTask until it ends, previewed when it completes, and
// can be cancelled while it runs; another key's task is shown as listed (the task operations
// belong to the key that created it).
import type { ModelgateClient, VideoTask, VideoTaskStatus } from '@modelgate/core';
import { useVideoTask } from '@modelgate/react';
import { useCallback, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { formatTime } from './format.js';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

const STATUSES: VideoTaskStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];

export function TasksScreen({ client, readOnly }: { client: ModelgateClient; readOnly: boolean }) {
  const [status, setStatus] = useState<VideoTaskStatus | ''>('');
  const [keyInput, setKeyInput] = useState('');
  const [keyId, setKeyId] = useState('');
  const [opened, setOpened] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.video.generations.list(
        {
          limit: 20,
          after,
          status: status || undefined,
          key_id: keyId ? Number(keyId) : undefined,
        },
        { signal },
      ),
    [client, status, keyId],
  );
  const pages = usePages(fetchPage, version);

  return (
    <section>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setOpened(null);
          setKeyId(keyInput.trim());
        }}
      >
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
        {!readOnly && (
          <>
            <label>
              Key id (empty: this key)
              <input
                name="key_id"
                inputMode="numeric"
                value={keyInput}
                onChange={(event) => setKeyInput(event.target.value.replace(/\D/g, ''))}
              />
            </label>
            <button type="submit">Show</button>
          </>
        )}
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </form>
      <p className="hint">
        {keyId ? `The tasks key ${keyId} created.` : 'The tasks this key created.'}
      </p>
      {opened && keyId && <ListedTask task={pages.data?.data.find((t) => t.task_id === opened)} />}
      {opened && !keyId && (
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

/** Another key's task as the list shows it: its state and, once completed, its video. */
function ListedTask({ task }: { task: VideoTask | undefined }) {
  if (!task) return null;
  return (
    <article className="detail" data-testid="task-detail" aria-label={`Task ${task.task_id}`}>
      <h2>
        Task <code>{task.task_id}</code>
      </h2>
      <p>
        {task.model} · <strong>{task.status}</strong> · {task.progress}%
        {task.error ? ` · ${task.error.code}: ${task.error.message}` : ''}
      </p>
      {task.video && (
        // biome-ignore lint/a11y/useMediaCaption: generated videos have no captions
        <video src={task.video.url} controls width={480} />
      )}
    </article>
  );
}

// The video panel: model picker, prompt and duration, submit, progress, the finished video.
import type { FileObject, Model, ModelgateClient, VideoModelId } from '@modelgate/core';
import { useVideoTask } from '@modelgate/react';
import { type FormEvent, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';

export function VideoPanel({
  client,
  models,
  image,
  onSpent,
}: {
  client: ModelgateClient;
  models: Model[];
  /** The uploaded image, offered as the first frame. */
  image: FileObject | null;
  /** A task was submitted or finished: the balance changed. */
  onSpent: () => void;
}) {
  // Unticking declines this image only: a new one (uploaded, or chosen in the image panel) is used.
  const [declined, setDeclined] = useState<string | null>(null);
  const withImage = image !== null && declined !== image.id;
  // A model that needs a first frame is offered once an image is uploaded and chosen; a model that
  // takes none is not offered with one.
  const offered = (m: Model) =>
    withImage ? m.video?.image_input !== 'none' : m.video?.image_input !== 'required';
  const usable = models.filter(offered);
  const [modelId, setModelId] = useState('');
  const model = usable.find((m) => m.id === modelId) ?? usable[0];
  const [prompt, setPrompt] = useState('A red kite over a grey sea, slow camera pan');
  const [duration, setDuration] = useState<number | undefined>(undefined);
  const durations = model?.video?.durations ?? [];
  const chosenDuration =
    duration !== undefined && durations.includes(duration)
      ? duration
      : model?.video?.default_duration;

  const { submit, task, status, progress, videoUrl, error, isFinal, isSubmitting, cancel } =
    useVideoTask({ client, pollIntervalMs: 1000, onFinish: onSpent });
  const running = status !== null && !isFinal;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!model) return;
    void submit({
      model: model.id as VideoModelId,
      prompt,
      duration: chosenDuration,
      ...(withImage ? { image_url: image.url } : {}),
    }).then((taskId) => {
      if (taskId) onSpent();
    });
  };

  return (
    <section className="panel" aria-labelledby="video-title">
      <header>
        <h2 id="video-title">Video</h2>
      </header>
      <form className="video-form" onSubmit={onSubmit}>
        <label>
          Model
          <select
            aria-label="Video model"
            value={model?.id ?? ''}
            onChange={(e) => setModelId(e.target.value)}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id} disabled={!offered(m)}>
                {m.id}
                {offered(m) ? '' : withImage ? ' (takes no image)' : ' (needs an image)'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Duration
          <select
            aria-label="Duration"
            value={chosenDuration ?? ''}
            onChange={(e) => setDuration(Number(e.target.value))}
          >
            {durations.map((d) => (
              <option key={d} value={d}>
                {d} s
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            aria-label="Use the uploaded image as the first frame"
            checked={withImage}
            disabled={!image}
            onChange={(e) => setDeclined(e.target.checked || !image ? null : image.id)}
          />
          First frame: {image ? <code>{image.id}</code> : 'upload an image above'}
        </label>
        <label className="wide">
          Prompt
          <textarea
            aria-label="Video prompt"
            rows={3}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
        <div className="actions">
          <button
            type="submit"
            disabled={!model || isSubmitting || running || prompt.trim() === ''}
          >
            {isSubmitting ? 'Submitting…' : 'Generate video'}
          </button>
          {running && (
            <button type="button" className="secondary" onClick={() => void cancel()}>
              Cancel
            </button>
          )}
        </div>
      </form>
      {status && (
        <div className="task" data-testid="video-status" data-status={status}>
          <span>
            Task <code>{task?.task_id ?? '…'}</code>: <strong>{status.replace('_', ' ')}</strong>
          </span>
          <progress aria-label="Video progress" max={100} value={progress} />
          <span>{progress}%</span>
        </div>
      )}
      {status === 'failed' && task?.error && (
        <p className="error" role="alert">
          <code>{task.error.code}</code> {task.error.message}
        </p>
      )}
      <ErrorNote error={error} />
      {videoUrl && (
        <figure>
          <video
            data-testid="video-result"
            src={videoUrl}
            controls
            autoPlay
            muted
            loop
            playsInline
          />
          <figcaption>
            <a href={videoUrl}>{videoUrl}</a> · {task?.video?.width}×{task?.video?.height},{' '}
            {task?.video?.duration} s
          </figcaption>
        </figure>
      )}
    </section>
  );
}

// The image panel: image model, size, count and prompt, Generate, the images from the gateway's
// CDN with what they cost; "Edit this image" makes one of them (or the uploaded image) the input
// of the next request, an edit; "Use as first frame" hands an image to the video panel.
import type { FileObject, ImageSize, Model, ModelgateClient } from '@modelgate/core';
import { type FormEvent, useState } from 'react';
import { formatCredits } from './credits.js';
import { ErrorNote } from './ErrorNote.js';
import { type FirstFrameChoice, useFirstFrame } from './use-first-frame.js';
import { useImageGeneration } from './use-image-generation.js';

/** The count picker goes up to this (or the model's `max_images`, when lower). */
const MOST_OFFERED = 4;

/**
 * Generates or edits images with the key's image models and offers each one as the video's first
 * frame.
 *
 * @example
 * <ImagePanel client={client} models={imageModels} image={image} onSpent={onSpent} onUseAsFirstFrame={setImage} />
 */
export function ImagePanel({
  client,
  models: allModels,
  image,
  onSpent,
  onUseAsFirstFrame,
}: {
  client: ModelgateClient;
  /** The key's image models (`type: 'image'`). */
  models: Model[];
  /** The image the page uses (uploaded or chosen), offered for an edit. */
  image: FileObject | null;
  /** A generation was attempted: the balance may have changed. */
  onSpent: () => void;
  /** An image was chosen as the video's first frame (and the image the chat attaches). */
  onUseAsFirstFrame: (file: FileObject) => void;
}) {
  // The image an edit starts from (a CDN URL); null: the next request generates.
  const [editing, setEditing] = useState<string | null>(null);
  const models = editing === null ? allModels : allModels.filter(edits);
  const [modelId, setModelId] = useState('');
  const model = models.find((m) => m.id === modelId) ?? models[0];
  const [size, setSize] = useState<ImageSize | undefined>(undefined);
  const sizes = model?.image?.sizes ?? [];
  const chosenSize = size !== undefined && sizes.includes(size) ? size : model?.image?.default_size;
  const [count, setCount] = useState(1);
  const counts = countsOf(model);
  const chosenCount = Math.min(count, counts.length);
  const [prompt, setPrompt] = useState('A lighthouse on a cliff at dusk, watercolour');
  const images = useImageGeneration(client, onSpent);
  const frame = useFirstFrame(client, onUseAsFirstFrame);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!model) return;
    const ask = { model: model.id, prompt, size: chosenSize, n: chosenCount };
    void (editing === null ? images.generate(ask) : images.edit(ask, editing));
  };
  const verb = editing === null ? 'Generate image' : 'Edit image';

  return (
    <section className="panel image-panel" aria-labelledby="image-generation-title">
      <header>
        <h2 id="image-generation-title">Image generation</h2>
      </header>
      <EditSource
        editing={editing}
        uploaded={image}
        canEdit={allModels.some(edits)}
        onChoose={setEditing}
      />
      <form className="image-form" onSubmit={onSubmit}>
        <Picker
          label="Model"
          name="Image model"
          values={models.map((m) => m.id)}
          value={model?.id}
          onPick={(id) => setModelId(id ?? '')}
        />
        <Picker label="Size" name="Image size" values={sizes} value={chosenSize} onPick={setSize} />
        <Picker
          label="Images"
          name="Number of images"
          values={counts}
          value={chosenCount}
          onPick={(n) => setCount(n ?? 1)}
        />
        <label className="wide">
          Prompt
          <textarea
            aria-label="Image prompt"
            rows={2}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
        <div className="actions">
          <button type="submit" disabled={!model || images.generating || prompt.trim() === ''}>
            {images.generating ? 'Working…' : verb}
          </button>
          {images.cost !== undefined && (
            <span className="hint" data-testid="image-cost">
              Charged {formatCredits(images.cost)} credits for {images.urls.length}{' '}
              {images.urls.length === 1 ? 'image' : 'images'}
            </span>
          )}
        </div>
      </form>
      <ErrorNote error={images.error ?? frame.error} />
      <GeneratedImages
        urls={images.urls}
        prompt={images.prompt}
        frame={frame}
        onEdit={allModels.some(edits) ? setEditing : undefined}
      />
    </section>
  );
}

/** A labelled select of `values`, each shown as it is; `onPick` gets the value chosen. */
function Picker<T extends string | number>({
  label,
  name,
  values,
  value,
  onPick,
}: {
  label: string;
  /** The select's accessible name. */
  name: string;
  values: readonly T[];
  value: T | undefined;
  onPick: (value: T | undefined) => void;
}) {
  return (
    <label>
      {label}
      <select
        aria-label={name}
        value={value ?? ''}
        onChange={(e) => onPick(values.find((v) => String(v) === e.target.value))}
      >
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Whether the model edits images (`image.operations`). */
function edits(model: Model): boolean {
  return model.image?.operations.includes('edit') ?? false;
}

/** What the next request starts from: nothing (a generation), or the image being edited. */
function EditSource({
  editing,
  uploaded,
  canEdit,
  onChoose,
}: {
  editing: string | null;
  uploaded: FileObject | null;
  canEdit: boolean;
  onChoose: (url: string | null) => void;
}) {
  if (editing !== null) {
    return (
      <div className="edit-source" data-testid="edit-source">
        <img src={editing} alt="What the edit starts from" />
        <span>Editing this image: the prompt says what to change.</span>
        <button type="button" className="secondary" onClick={() => onChoose(null)}>
          Stop editing
        </button>
      </div>
    );
  }
  if (!uploaded || !canEdit) return null;
  return (
    <div className="edit-source">
      <button type="button" className="secondary" onClick={() => onChoose(uploaded.url)}>
        Edit the uploaded image
      </button>
    </div>
  );
}

/** 1 up to the model's `max_images`, at most {@link MOST_OFFERED}. */
function countsOf(model: Model | undefined): number[] {
  const most = Math.min(MOST_OFFERED, model?.image?.max_images ?? 1);
  return Array.from({ length: most }, (_, index) => index + 1);
}

/** The images as the CDN serves them, each with its URL, "Edit this image" and "Use as first frame". */
function GeneratedImages({
  urls,
  prompt,
  frame,
  onEdit,
}: {
  urls: string[];
  /** What they show: the alt text. */
  prompt: string;
  frame: FirstFrameChoice;
  /** Makes an image the input of the next request; absent when no model edits. */
  onEdit: ((url: string) => void) | undefined;
}) {
  return (
    <div className="generated">
      {urls.map((url) => (
        <figure key={url} data-testid="generated-image">
          <img src={url} alt={prompt} />
          <figcaption>
            <a href={url}>{url}</a>
            {onEdit && (
              <button type="button" className="secondary" onClick={() => onEdit(url)}>
                Edit this image
              </button>
            )}
            <button
              type="button"
              className="secondary"
              disabled={frame.busy}
              onClick={() => void frame.use(url)}
            >
              {frame.chosen === url ? 'First frame ✓' : 'Use as first frame'}
            </button>
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

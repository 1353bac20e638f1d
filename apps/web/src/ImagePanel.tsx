// The image panel: image model, size, count and prompt, Generate, the images from the gateway's
// CDN with what they cost, and "Use as first frame", which hands an image to the video panel.
import type { FileObject, ImageSize, Model, ModelgateClient } from '@modelgate/core';
import { type FormEvent, useState } from 'react';
import { formatCredits } from './credits.js';
import { ErrorNote } from './ErrorNote.js';
import { type FirstFrameChoice, useFirstFrame } from './use-first-frame.js';
import { useImageGeneration } from './use-image-generation.js';

/** The count picker goes up to this (or the model's `max_images`, when lower). */
const MOST_OFFERED = 4;

/**
 * Generates images with the key's image models and offers each one as the video's first frame.
 *
 * @example
 * <ImagePanel client={client} models={imageModels} onSpent={onSpent} onUseAsFirstFrame={setImage} />
 */
export function ImagePanel({
  client,
  models,
  onSpent,
  onUseAsFirstFrame,
}: {
  client: ModelgateClient;
  /** The key's image models (`type: 'image'`). */
  models: Model[];
  /** A generation was attempted: the balance may have changed. */
  onSpent: () => void;
  /** An image was chosen as the video's first frame (and the image the chat attaches). */
  onUseAsFirstFrame: (file: FileObject) => void;
}) {
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
    void images.generate({ model: model.id, prompt, size: chosenSize, n: chosenCount });
  };

  return (
    <section className="panel image-panel" aria-labelledby="image-generation-title">
      <header>
        <h2 id="image-generation-title">Image generation</h2>
      </header>
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
            {images.generating ? 'Generating…' : 'Generate image'}
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
      <GeneratedImages urls={images.urls} prompt={images.prompt} frame={frame} />
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

/** 1 up to the model's `max_images`, at most {@link MOST_OFFERED}. */
function countsOf(model: Model | undefined): number[] {
  const most = Math.min(MOST_OFFERED, model?.image?.max_images ?? 1);
  return Array.from({ length: most }, (_, index) => index + 1);
}

/** The images as the CDN serves them, each with its URL and "Use as first frame". */
function GeneratedImages({
  urls,
  prompt,
  frame,
}: {
  urls: string[];
  /** What they show: the alt text. */
  prompt: string;
  frame: FirstFrameChoice;
}) {
  return (
    <div className="generated">
      {urls.map((url) => (
        <figure key={url} data-testid="generated-image">
          <img src={url} alt={prompt} />
          <figcaption>
            <a href={url}>{url}</a>
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

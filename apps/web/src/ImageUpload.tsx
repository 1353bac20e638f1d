// Upload an image once (POST /v1/files); both panels can then use its CDN URL.
import type { FileObject, ModelgateClient, ModelgateError } from '@modelgate/core';
import { asModelgateError } from '@modelgate/core';
import { type ChangeEvent, useState } from 'react';
import { ErrorNote } from './ErrorNote.js';

export function ImageUpload({
  client,
  image,
  onUploaded,
}: {
  client: ModelgateClient;
  image: FileObject | null;
  onUploaded: (file: FileObject | null) => void;
}) {
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<ModelgateError | undefined>(undefined);

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setUploading(true);
    setError(undefined);
    try {
      onUploaded(await client.files.create({ file, purpose: 'image' }));
    } catch (caught) {
      setError(asModelgateError(caught));
      onUploaded(null);
    } finally {
      setUploading(false);
    }
  };

  return (
    <section className="panel upload" aria-labelledby="image-title">
      <header>
        <h2 id="image-title">Image</h2>
        <label className="file">
          <input
            type="file"
            aria-label="Upload image"
            accept="image/png,image/jpeg,image/webp,image/gif"
            onChange={onChange}
            disabled={uploading}
          />
        </label>
        {uploading && <span className="hint">Uploading…</span>}
      </header>
      <ErrorNote error={error} />
      {image && (
        <figure className="uploaded" data-testid="uploaded-image">
          <img src={image.url} alt="The file the panels use, uploaded or generated" />
          <figcaption>
            <code>{image.id}</code> · {Math.round(image.size / 1024)} KiB — usable as a video's
            first frame, and attachable to a chat message.
          </figcaption>
        </figure>
      )}
    </section>
  );
}

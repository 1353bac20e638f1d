// "Use as first frame" in the image panel: a generated image's URL becomes the stored file it is,
// handed to whoever shows it as the video's first frame.
import {
  asModelgateError,
  type FileObject,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import { useState } from 'react';
import { storedFile } from './stored-file.js';

export interface FirstFrameChoice {
  /** The URL handed on last. */
  chosen: string | undefined;
  /** Looking the file up. */
  busy: boolean;
  error: ModelgateError | undefined;
  use(url: string): Promise<void>;
}

/**
 * @example
 * const frame = useFirstFrame(client, setImage);
 * await frame.use(images.urls[0]); // setImage(the file behind that URL)
 */
export function useFirstFrame(
  client: ModelgateClient,
  onUse: (file: FileObject) => void,
): FirstFrameChoice {
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ModelgateError | undefined>(undefined);
  const use = async (url: string) => {
    setBusy(true);
    setError(undefined);
    try {
      onUse(await storedFile(client, url));
      setChosen(url);
    } catch (caught) {
      setError(asModelgateError(caught));
    } finally {
      setBusy(false);
    }
  };
  return { chosen, busy, error, use };
}

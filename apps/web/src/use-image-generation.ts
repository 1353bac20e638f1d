// POST /v1/images/generations and /v1/images/edits from the image panel: the images as CDN URLs,
// and what they cost, read from the usage record the gateway wrote for that very request.
import {
  asModelgateError,
  type CreateImageRequest,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/** What the panel asks for: the form's fields (the answer is always stored files: `url`). */
export type ImageAsk = Pick<CreateImageRequest, 'model' | 'prompt' | 'size' | 'n'>;

export interface ImageGeneration {
  /** The last generation's image URLs, on the gateway's CDN. */
  urls: string[];
  /** The prompt they were made from. */
  prompt: string;
  /** Credits charged for them; `undefined` before the first generation or after a failure. */
  cost: number | undefined;
  error: ModelgateError | undefined;
  generating: boolean;
  generate(ask: ImageAsk): Promise<void>;
  /** The same, as an edit of the image at `imageUrl` (a CDN URL of the key's file). */
  edit(ask: ImageAsk, imageUrl: string): Promise<void>;
}

/**
 * Generates images and reads their cost: the request carries an `x-request-id` of ours (the
 * gateway keeps a sane one), and the usage records of that id are what was charged for it — exact
 * even while a video of the same key is being charged. `onSpent` is called after every attempt.
 *
 * @example
 * const images = useImageGeneration(client, onSpent);
 * await images.generate({ model: 'dall-e-3', prompt: 'a red kite', size: '1024x1024' });
 * images.urls; // ['http://localhost:8081/files/file-….png']
 */
export function useImageGeneration(client: ModelgateClient, onSpent: () => void): ImageGeneration {
  const [state, setState] = useState<Omit<ImageGeneration, 'generate' | 'edit'>>({
    urls: [],
    prompt: '',
    cost: undefined,
    error: undefined,
    generating: false,
  });
  // Unmounting (another key) abandons a generation still running. Made in the effect, so that
  // StrictMode's trial unmount and remount leaves a live one.
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => current.abort();
  }, []);

  const run = useCallback(
    async (ask: ImageAsk, imageUrl: string | undefined) => {
      const signal = controller.current?.signal ?? AbortSignal.abort();
      setState((s) => ({ ...s, error: undefined, generating: true }));
      try {
        const { urls, cost } = await makeAndPrice(client, ask, imageUrl, signal);
        const made = { urls, prompt: ask.prompt, cost };
        if (!signal.aborted) setState({ ...made, error: undefined, generating: false });
      } catch (caught) {
        const error = asModelgateError(caught);
        const none = { urls: [], prompt: '', cost: undefined };
        if (!signal.aborted) setState({ ...none, error, generating: false });
      }
      if (!signal.aborted) onSpent();
    },
    [client, onSpent],
  );

  return {
    ...state,
    generate: useCallback((ask: ImageAsk) => run(ask, undefined), [run]),
    edit: useCallback((ask: ImageAsk, imageUrl: string) => run(ask, imageUrl), [run]),
  };
}

/** Generates, or edits the image at `imageUrl`; the answer is always stored files (`url`). */
async function makeAndPrice(
  client: ModelgateClient,
  ask: ImageAsk,
  imageUrl: string | undefined,
  signal: AbortSignal,
) {
  const requestId = newRequestId();
  const options = { signal, headers: { 'x-request-id': requestId } };
  const answer =
    imageUrl === undefined
      ? await client.images.generate({ ...ask, response_format: 'url' }, options)
      : await client.images.edit(
          { ...ask, images: [{ image_url: imageUrl }], response_format: 'url' },
          options,
        );
  const urls = answer.data.flatMap((image) => (image.url === undefined ? [] : [image.url]));
  // A retried attempt may have left a record of its own (a refund, at 0): they add up.
  const records = await client.usage.records.list({ request_id: requestId }, { signal });
  const cost = records.data.reduce((sum, record) => sum + record.cost, 0);
  return { urls, cost };
}

/** `img-` and 24 hex digits; getRandomValues works on plain-http origins too, unlike randomUUID. */
function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `img-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

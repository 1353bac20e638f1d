// Images attached with /attach: uploaded at once, sent with the next prompt, then cleared.
import type { FileObject, ModelgateClient } from '@modelgate/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { uploadImage } from '../upload.js';

export interface AttachmentControls {
  /** What the next prompt will carry. */
  files: FileObject[];
  /** Uploads `path` and adds it; rejects with the upload's error. */
  attach(path: string): Promise<FileObject>;
  /** Drops everything attached. */
  clear(): void;
  /** The attached files' URLs, clearing the list (the prompt that carries them is being sent). */
  take(): string[];
}

/**
 * @example
 * ```tsx
 * const attachments = useAttachments(client);
 * await attachments.attach('./cat.png');
 * const imageUrls = attachments.take();
 * ```
 */
export function useAttachments(client: ModelgateClient): AttachmentControls {
  const [files, setFiles] = useState<FileObject[]>([]);
  // Read by `take` right after an `attach` resolved, before React re-rendered.
  const current = useRef<FileObject[]>([]);
  const update = useCallback((next: FileObject[]) => {
    current.current = next;
    setFiles(next);
  }, []);

  const attach = useCallback(
    async (path: string) => {
      const file = await uploadImage(client, path);
      update([...current.current, file]);
      return file;
    },
    [client, update],
  );
  const clear = useCallback(() => update([]), [update]);
  const take = useCallback(() => {
    const urls = current.current.map((file) => file.url);
    update([]);
    return urls;
  }, [update]);

  return useMemo(() => ({ files, attach, clear, take }), [files, attach, clear, take]);
}

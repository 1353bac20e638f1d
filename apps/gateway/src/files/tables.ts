/** The uploaded files table (migration 002_files_video). */
import type { FileObject } from '@modelgate/core';

declare module '../db/schema.js' {
  interface DB extends FilesTables {}
}

export interface FilesTable {
  /** `file-` + 32 base62 characters (≥128 random bits). */
  id: string;
  key_id: number;
  /** Content address in the blob store; identical uploads share it. */
  sha256: string;
  size: number;
  mime_type: FileObject['mime_type'];
  ext: string;
  filename: string;
  purpose: FileObject['purpose'];
  /** Unix seconds. */
  created_at: number;
}

export interface FilesTables {
  files: FilesTable;
}

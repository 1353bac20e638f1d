/** The uploaded files table (migration 002_files_video). */

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
  mime_type: string;
  ext: string;
  filename: string;
  purpose: string;
  /** Unix seconds. */
  created_at: number;
}

export interface FilesTables {
  files: FilesTable;
}

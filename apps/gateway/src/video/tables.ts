/** The video tasks table (migration 002_files_video). */
import type { ColumnType, Generated } from 'kysely';

declare module '../db/schema.js' {
  interface DB extends VideoTables {}
}

/** jsonb column: write `JSON.stringify(value)`, read parsed. */
type Json<T> = ColumnType<T, string, string>;

/** Where an image comes from: one of our uploaded files, or an external HTTPS URL passed through. */
export type ImageSource = { kind: 'file'; fileId: string } | { kind: 'external'; url: string };

/**
 * What a task row keeps of its request, checked against the model's table and with its defaults
 * applied (the model, callback and metadata have columns of their own).
 */
export interface StoredVideoParams {
  prompt: string;
  duration: number;
  resolution: string;
  aspectRatio: string;
  image?: ImageSource;
  lastFrame?: ImageSource;
  seed?: number;
  negativePrompt?: string;
  generateAudio?: boolean;
}

export type VideoTaskStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface VideoTasksTable {
  id: string;
  seq: Generated<number>;
  key_id: number;
  model: string;
  provider: string;
  status: VideoTaskStatus;
  progress: Generated<number>;
  /** The normalized request, less what has its own column. */
  params: Json<StoredVideoParams>;
  metadata: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  callback_url: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  reserved_units: number;
  charged_units: number | null;
  upstream_id: string | null;
  submit_started_at_ms: number | null;
  claimed_by: string | null;
  lease_until_ms: number | null;
  next_poll_at_ms: number;
  deadline_at_ms: number;
  poll_count: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  video_sha256: string | null;
  video_size: number | null;
  video_duration: number | null;
  video_width: number | null;
  video_height: number | null;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface VideoTables {
  video_tasks: VideoTasksTable;
}

/** The video tasks table (migration 002_files_video). */
import type { ColumnType, Generated } from 'kysely';
import type { NormalizedVideoRequest } from './submit/request.js';

declare module '../db/schema.js' {
  interface DB extends VideoTables {}
}

/** jsonb column: write `JSON.stringify(value)`, read parsed. */
type Json<T> = ColumnType<T, string, string>;

/** What a task row keeps of its request: the model, callback and metadata have columns of their own. */
export type StoredVideoParams = Omit<NormalizedVideoRequest, 'model' | 'callbackUrl' | 'metadata'>;

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

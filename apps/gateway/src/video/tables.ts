/** The video task: its table (migration 002_files_video), its row as selected, and as the API shows it. */
import type { VideoModelId, VideoTask } from '@modelgate/core';
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

/** A task row as selected (generated columns resolved). */
export type VideoTaskRow = {
  [K in keyof VideoTasksTable]: VideoTasksTable[K] extends ColumnType<infer S, unknown, unknown>
    ? S
    : VideoTasksTable[K];
};

/** The API's VideoTask (with the request's `metadata` echoed back when it had one). */
export type VideoTaskObject = VideoTask;

/**
 * Renders a task row as the API's VideoTask. The video URL is ours (`{cdn}/videos/{id}.mp4`),
 * never the provider's (theirs expire).
 *
 * @example
 * toVideoTask(row, 'http://localhost:8081').video?.url; // "http://localhost:8081/videos/vt_….mp4"
 */
export function toVideoTask(row: VideoTaskRow, cdnUrl: string): VideoTaskObject {
  const task: VideoTaskObject = {
    task_id: row.id,
    object: 'video.task',
    model: row.model as VideoModelId,
    status: row.status,
    progress: row.status === 'completed' ? 100 : Number(row.progress),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    video:
      row.status === 'completed' && row.video_sha256
        ? {
            url: `${cdnUrl.replace(/\/+$/, '')}/videos/${row.id}.mp4`,
            duration: Number(row.video_duration ?? 0),
            width: Number(row.video_width ?? 0),
            height: Number(row.video_height ?? 0),
            mime_type: 'video/mp4',
          }
        : null,
    error:
      row.error_code !== null
        ? { code: row.error_code, message: row.error_message ?? row.error_code }
        : null,
  };
  if (row.metadata) task.metadata = row.metadata as Record<string, string>;
  return task;
}

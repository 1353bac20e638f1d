/** A task row as the API shows it. */
import type { VideoModelId, VideoTask } from '@modelgate/core';
import type { VideoTasksTable } from './tables.js';

/** A task row as selected (generated columns resolved). */
export type VideoTaskRow = {
  [K in keyof VideoTasksTable]: VideoTasksTable[K] extends import('kysely').ColumnType<
    infer S,
    unknown,
    unknown
  >
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

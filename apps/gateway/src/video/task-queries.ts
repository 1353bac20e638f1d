/** A key's tasks: one by id, a page of them, and a finished video's blob for the CDN. */
import type { VideoTaskList } from '@modelgate/core';
import type { Kysely, Transaction } from 'kysely';
import { cursorPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';
import { notFound } from '../errors/api-error.js';
import { toVideoTask, type VideoTaskRow, type VideoTaskStatus } from './tables.js';

/** The key's task by id; 404 when there is none (or it is another key's). */
export async function loadOwnedTask(
  db: Kysely<DB>,
  keyId: number,
  taskId: string,
): Promise<VideoTaskRow> {
  const row = (await db
    .selectFrom('video_tasks')
    .selectAll()
    .where('id', '=', taskId)
    .where('key_id', '=', keyId)
    .executeTakeFirst()) as VideoTaskRow | undefined;
  if (!row) throw notFound(`No video task ${taskId}.`, 'task_not_found', 'task_id');
  return row;
}

export interface TaskListQuery {
  limit?: number;
  after?: string | null;
  status?: string | null;
}

/** One page of the key's tasks, newest first; `after` is the last id of the previous page. */
export async function listOwnedTasks(
  db: Kysely<DB>,
  cdnUrl: string,
  keyId: number,
  query: TaskListQuery,
): Promise<VideoTaskList> {
  let tasks = db.selectFrom('video_tasks').selectAll();
  if (query.status) tasks = tasks.where('status', '=', query.status as VideoTaskStatus);
  const page = await cursorPage(db, 'video_tasks', tasks, {
    keyId,
    limit: query.limit ?? 20,
    after: query.after,
    invalidCursorMessage: 'after is not a cursor from this list.',
  });
  return {
    object: 'list',
    data: page.rows.map((row) => toVideoTask(row, cdnUrl)),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}

const VIDEO_NAME = /^([A-Za-z0-9_-]+)\.mp4$/;

/** For the CDN: the blob of a completed task's video by its name (`{task_id}.mp4`), or null. */
export async function findFinishedVideo(
  db: Kysely<DB>,
  name: string,
): Promise<{ sha256: string; size: number; contentType: string } | null> {
  const taskId = VIDEO_NAME.exec(name)?.[1];
  if (taskId === undefined) return null;
  const row = await db
    .selectFrom('video_tasks')
    .select(['video_sha256', 'video_size'])
    .where('id', '=', taskId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  if (!row?.video_sha256) return null;
  return { sha256: row.video_sha256, size: Number(row.video_size), contentType: 'video/mp4' };
}

/** Whether a task's video is the blob (asked by files, inside the blob's lock, before deleting it). */
export async function videoRefersTo(trx: Transaction<DB>, sha256: string): Promise<boolean> {
  const task = await trx
    .selectFrom('video_tasks')
    .select('id')
    .where('video_sha256', '=', sha256)
    .limit(1)
    .executeTakeFirst();
  return task !== undefined;
}

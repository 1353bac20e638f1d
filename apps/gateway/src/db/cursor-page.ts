/**
 * Newest-first pages of a key's rows with an `after` cursor, for the tables that keep an insertion
 * `seq` next to their `id` and `key_id`. The cursor is the last id of the previous page; an id that
 * is not in the key's list is a 400 `invalid_cursor` naming `after`.
 */
import { type Generated, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { badRequest } from '../errors/api-error.js';
import type { DB } from './schema.js';

/** The columns cursor paging reads. */
interface PagedColumns {
  id: string;
  seq: Generated<number>;
  /** Rows of no key (a budget alert's delivery) are never on a key's page. */
  key_id: number | null;
}

/** The tables that can be paged by cursor: those with all of {@link PagedColumns}. */
export type PagedTable = { [T in keyof DB]: DB[T] extends PagedColumns ? T : never }[keyof DB];

export interface CursorPageOptions {
  /** The key whose rows are listed (null: the rows of no key); the cursor must be one of them. */
  keyId: number | null;
  /** Rows on a page (the routes allow 1–100). */
  limit: number;
  /** The previous page's last id, or nothing for the first page. */
  after?: string | null;
  /** The 400's message when `after` is not an id of the key's list. */
  invalidCursorMessage: string;
}

export interface CursorPage<Row> {
  /** At most `limit` rows, newest first. */
  rows: Row[];
  hasMore: boolean;
  /** The id to pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** The `seq` of the key's row `after`, or undefined for the first page. */
async function cursorSeq(
  db: Kysely<DB>,
  table: PagedTable,
  options: CursorPageOptions,
): Promise<number | undefined> {
  if (!options.after) return undefined;
  const cursor = await db
    .selectFrom(table)
    .select('seq')
    .where('id', '=', options.after)
    .where('key_id', options.keyId === null ? 'is' : '=', options.keyId)
    .executeTakeFirst();
  if (!cursor) throw badRequest(options.invalidCursorMessage, 'after', 'invalid_cursor');
  return cursor.seq;
}

/**
 * One page of `query` (a select from `table` with the caller's columns and filters): the key's rows
 * older than the cursor, newest first, with one row more asked for to learn whether more follow.
 *
 * @example
 * const page = await cursorPage(db, 'video_tasks', db.selectFrom('video_tasks').selectAll(), {
 *   keyId: 7, limit: 20, after: 'vt_…', invalidCursorMessage: 'after is not a cursor from this list.',
 * });
 */
export async function cursorPage<TB extends PagedTable, O extends { id: string }>(
  db: Kysely<DB>,
  table: TB,
  query: SelectQueryBuilder<DB, TB, O>,
  options: CursorPageOptions,
): Promise<CursorPage<O>> {
  const beforeSeq = await cursorSeq(db, table, options);
  // Kysely cannot check a column name against a table that is still a type parameter; the
  // PagedTable bound is what guarantees these columns exist, so they are named dynamically.
  const { ref } = db.dynamic;
  let paged = query.where(ref('key_id'), options.keyId === null ? 'is' : '=', options.keyId);
  if (beforeSeq !== undefined) paged = paged.where(ref('seq'), '<', beforeSeq);
  const rows = await paged
    .orderBy(ref('seq'), 'desc')
    .limit(options.limit + 1)
    .execute();
  return pageOf(rows, options.limit);
}

/** The tables paged by their own increasing numeric id (no `seq`): keys, usage rows, teams. */
export type IdPagedTable = 'api_keys' | 'usage' | 'audit_log' | 'teams';

/**
 * One page of `query` ordered by the table's numeric id, newest first. The cursor is the last id
 * shown; one that is not such an id is a 400 `invalid_cursor` naming `after`. Filters, the key's
 * included, are the caller's.
 *
 * @example
 * const page = await idPage(db.selectFrom('api_keys').selectAll(), { limit: 20, after: '42' });
 */
export async function idPage<TB extends IdPagedTable, O extends { id: number | string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: { limit: number; after?: string },
): Promise<CursorPage<O>> {
  // As in cursorPage: the IdPagedTable bound is what guarantees the column, named as raw SQL.
  const idRef = sql.ref<number>('id');
  let paged = query;
  if (options.after !== undefined) paged = paged.where(idRef, '<', cursorId(options.after));
  const rows = await paged
    .orderBy(idRef, 'desc')
    .limit(options.limit + 1)
    .execute();
  return pageOf(rows, options.limit);
}

/** The id an `after` cursor names; a 400 for anything an id-paged list never hands out. */
function cursorId(after: string): number {
  if (!/^[1-9]\d{0,15}$/.test(after)) {
    throw badRequest('after is not a cursor from this list.', 'after', 'invalid_cursor');
  }
  return Number(after);
}

/** The first `limit` rows of `rows` (asked for one more), whether more follow, and the next cursor. */
function pageOf<O extends { id: number | string }>(rows: O[], limit: number): CursorPage<O> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page.at(-1);
  return { rows: page, hasMore, nextCursor: hasMore && last ? String(last.id) : null };
}

import { type Kysely, sql, type Transaction } from 'kysely';
import { randomBase62 } from '../db/ids.js';
import type { DB } from '../db/schema.js';
import type { FilesTable } from '../video/tables.js';
import type { ImageType } from './sniff.js';
import type { BlobStore, StagedBlob } from './storage.js';

/** The API's FileObject. */
export interface FileObject {
  id: string;
  object: 'file';
  url: string;
  size: number;
  created_at: number;
  filename: string;
  mime_type: string;
  purpose: string;
}

export interface FilesService {
  readonly store: BlobStore;
  readonly maxUploadBytes: number;
  /** Keeps a staged upload (already sniffed) and records its row; returns the FileObject. */
  create(
    keyId: number,
    staged: StagedBlob,
    type: ImageType,
    meta: { filename: string; purpose: string },
  ): Promise<FileObject>;
  /** The key's file, or undefined (another key's file is "not found" too). */
  get(keyId: number, id: string): Promise<FilesTable | undefined>;
  /** Deletes the key's file; the bytes go once no row references them. false when not found. */
  delete(keyId: number, id: string): Promise<boolean>;
  /** The row for a CDN path, or undefined once deleted. */
  lookupForCdn(id: string, ext: string): Promise<FilesTable | undefined>;
  toObject(row: FilesTable): FileObject;
}

export interface FilesServiceDeps {
  db: Kysely<DB>;
  store: BlobStore;
  /** Public base of the CDN listener, e.g. `http://localhost:8081`. */
  cdnUrl: string;
  maxUploadBytes: number;
}

/**
 * Serialises everything that adds or drops a reference to one blob, so a delete that finds no
 * reference left cannot remove bytes an upload of the same content is about to reference.
 */
async function lockBlob(trx: Transaction<DB>, sha256: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${sha256}, 0))`.execute(trx);
}

/** Whether any file or task still references the blob (inside the lock). */
export async function blobReferenced(trx: Transaction<DB>, sha256: string): Promise<boolean> {
  const file = await trx
    .selectFrom('files')
    .select('id')
    .where('sha256', '=', sha256)
    .limit(1)
    .executeTakeFirst();
  if (file) return true;
  const task = await trx
    .selectFrom('video_tasks')
    .select('id')
    .where('video_sha256', '=', sha256)
    .limit(1)
    .executeTakeFirst();
  return task !== undefined;
}

/**
 * Uploaded files: rows in `files`, bytes in the content-addressed blob store.
 *
 * @example
 * const files = createFilesService({ db, store, cdnUrl: 'http://localhost:8081', maxUploadBytes: 20 << 20 });
 * const object = await files.create(key.id, staged, { mime: 'image/png', ext: 'png' }, { filename: 'a.png', purpose: 'image' });
 */
export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { db, store } = deps;
  const base = deps.cdnUrl.replace(/\/+$/, '');

  const toObject = (row: FilesTable): FileObject => ({
    id: row.id,
    object: 'file',
    url: `${base}/files/${row.id}.${row.ext}`,
    size: Number(row.size),
    created_at: Number(row.created_at),
    filename: row.filename,
    mime_type: row.mime_type,
    purpose: row.purpose,
  });

  return {
    store,
    maxUploadBytes: deps.maxUploadBytes,
    toObject,
    async create(keyId, staged, type, meta) {
      const row: FilesTable = {
        id: `file-${randomBase62(32)}`,
        key_id: keyId,
        sha256: staged.sha256,
        size: staged.size,
        mime_type: type.mime,
        ext: type.ext,
        filename: meta.filename,
        purpose: meta.purpose,
        created_at: Math.floor(Date.now() / 1000),
      };
      try {
        await db.transaction().execute(async (trx) => {
          await lockBlob(trx, staged.sha256);
          await staged.commit();
          await trx.insertInto('files').values(row).execute();
        });
      } finally {
        await staged.discard();
      }
      return toObject(row);
    },
    async get(keyId, id) {
      return db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', id)
        .where('key_id', '=', keyId)
        .executeTakeFirst();
    },
    async delete(keyId, id) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('files')
          .select('sha256')
          .where('id', '=', id)
          .where('key_id', '=', keyId)
          .executeTakeFirst();
        if (!row) return false;
        await lockBlob(trx, row.sha256);
        const deleted = await trx
          .deleteFrom('files')
          .where('id', '=', id)
          .where('key_id', '=', keyId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) !== 1) return false;
        if (!(await blobReferenced(trx, row.sha256))) await store.delete(row.sha256);
        return true;
      });
    },
    async lookupForCdn(id, ext) {
      return db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', id)
        .where('ext', '=', ext)
        .executeTakeFirst();
    },
  };
}

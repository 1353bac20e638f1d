/**
 * The files table and the blobs its rows reference: uploads kept and recorded, read, deleted (the
 * bytes go once nothing refers to them), blobs other features keep in the same store, and the CDN
 * URLs that name a file (`{cdn_url}/files/{id}.{ext}`: such a URL is read from the blob store, never
 * fetched over HTTP).
 */
import type { FileObject } from '@modelgate/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import { randomBase62 } from '../db/ids.js';
import type { DB } from '../db/schema.js';
import type { CdnObject } from './cdn/handler.js';
import type { ImageType } from './sniff.js';
import type { BlobStore, StagedBlob } from './store/blob-store.js';
import type { FilesTable } from './tables.js';

/** A file's name on the CDN: its id and extension. */
export const CDN_FILE_NAME = /^(file-[A-Za-z0-9]+)\.(png|jpg|webp|gif)$/;

/**
 * The file id and extension a CDN URL names; null for any other URL (another host, another path).
 *
 * @example
 * cdnFileOf('http://localhost:8081/files/file-abc.png', 'http://localhost:8081'); // { id: 'file-abc', ext: 'png' }
 */
export function cdnFileOf(url: string, cdnUrl: string): { id: string; ext: string } | null {
  const base = cdnUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/files/`)) return null;
  const match = CDN_FILE_NAME.exec(url.slice(`${base}/files/`.length).split(/[?#]/)[0]!);
  return match ? { id: match[1]!, ext: match[2]! } : null;
}

/** The uploaded files, and the blobs of every feature that keeps bytes in the store. */
export interface FileRecords {
  /** Keeps a staged upload (already sniffed) and records its row; returns the FileObject. */
  create(
    keyId: number,
    staged: StagedBlob,
    type: ImageType,
    meta: { filename: string; purpose: FileObject['purpose'] },
  ): Promise<FileObject>;
  /** The key's file, or undefined (another key's file is "not found" too). */
  get(keyId: number, id: string): Promise<FilesTable | undefined>;
  /** Deletes the key's file; the bytes go once nothing refers to them. false when not found. */
  delete(keyId: number, id: string): Promise<boolean>;
  toObject(row: FilesTable): FileObject;
  /**
   * Moves a staged blob to its content address under the blob's lock, so a delete of the same
   * bytes cannot remove them meanwhile (a finished video, say).
   */
  keep(staged: StagedBlob): Promise<void>;
  /** The row behind a CDN path's id and extension, or undefined once deleted. */
  lookupForCdn(id: string, ext: string): Promise<FilesTable | undefined>;
  /** The CDN's `/files/{id}.{ext}` by its last segment: the file's blob, or null. */
  findForCdn(name: string): Promise<CdnObject | null>;
}

/**
 * A feature that keeps its own blobs in the store (video keeps finished videos): where the CDN
 * serves them, and whether it still refers to a blob.
 */
export interface BlobOwner {
  /** The CDN serves its blobs at `/{cdnPrefix}/{name}`. */
  cdnPrefix: string;
  /** The blob a name stands for, or null (404). */
  find(name: string): Promise<CdnObject | null>;
  /** Whether it still refers to the blob; asked inside the blob's lock before its bytes go. */
  refersTo(trx: Transaction<DB>, sha256: string): Promise<boolean>;
}

export interface FileRecordsDeps {
  db: Kysely<DB>;
  store: BlobStore;
  /** Public base of the CDN listener, e.g. `http://localhost:8081`. */
  cdnUrl: string;
  /** The other features keeping blobs (filled as they are built). */
  owners: readonly BlobOwner[];
}

/**
 * Serialises everything that adds or drops a reference to one blob, so a delete that finds no
 * reference left cannot remove bytes an upload of the same content is about to reference.
 */
async function lockBlob(trx: Transaction<DB>, sha256: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${sha256}, 0))`.execute(trx);
}

/** Whether any file, or any other feature, still refers to the blob (inside the lock). */
async function blobReferenced(
  trx: Transaction<DB>,
  sha256: string,
  owners: readonly BlobOwner[],
): Promise<boolean> {
  const file = await trx
    .selectFrom('files')
    .select('id')
    .where('sha256', '=', sha256)
    .limit(1)
    .executeTakeFirst();
  if (file) return true;
  for (const owner of owners) if (await owner.refersTo(trx, sha256)) return true;
  return false;
}

/**
 * Uploaded files: rows in `files`, bytes in the content-addressed blob store.
 *
 * @example
 * const files = createFileRecords({ db, store, cdnUrl: 'http://localhost:8081', owners: [] });
 * const object = await files.create(key.id, staged, { mime: 'image/png', ext: 'png' }, { filename: 'a.png', purpose: 'image' });
 */
export function createFileRecords(deps: FileRecordsDeps): FileRecords {
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

  const lookupForCdn = (id: string, ext: string) =>
    db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('ext', '=', ext)
      .executeTakeFirst();

  return {
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
        if (!(await blobReferenced(trx, row.sha256, deps.owners))) await store.delete(row.sha256);
        return true;
      });
    },
    async keep(staged) {
      await db.transaction().execute(async (trx) => {
        await lockBlob(trx, staged.sha256);
        await staged.commit();
      });
    },
    lookupForCdn,
    async findForCdn(name) {
      const match = CDN_FILE_NAME.exec(name);
      const row = match ? await lookupForCdn(match[1]!, match[2]!) : undefined;
      return row
        ? { sha256: row.sha256, size: Number(row.size), contentType: row.mime_type }
        : null;
    },
  };
}

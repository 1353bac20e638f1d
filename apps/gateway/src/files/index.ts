/**
 * The files feature: uploads kept in a content-addressed blob store (the data directory, or an
 * S3-compatible store shared by instances), their rows, and the CDN listener that serves them. Other
 * features keep their own blobs in the same store and tell files how the CDN finds them
 * (`addBlobOwner`); files never imports them.
 */
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import { type CdnLookup, createCdnHandler } from './cdn/handler.js';
import { type BlobOwner, createFileRecords, type FileRecords } from './service.js';
import type { BlobStore } from './store/blob-store.js';
import { openBlobStore } from './store/open.js';

export type { CdnObject } from './cdn/handler.js';
export { cdnErrorHandler } from './cdn/on-error.js';
export { imageInfo } from './dimensions.js';
export { boundaryOf, MultipartError, readMultipart } from './multipart.js';
export { type BlobOwner, CDN_FILE_NAME, cdnFileOf } from './service.js';
export { type ImageType, MIME_BY_EXT, SNIFF_BYTES, sniffImageType } from './sniff.js';
export {
  type BlobStore,
  BlobTooLargeError,
  readBlob,
  type StagedBlob,
} from './store/blob-store.js';
export type { FilesTable, FilesTables } from './tables.js';

export interface FilesService extends FileRecords {
  /** Where every feature keeps bytes (uploads, finished videos). */
  readonly store: BlobStore;
  /** The largest upload (MODELGATE_MAX_UPLOAD_BYTES). */
  readonly maxUploadBytes: number;
  /** Serves another feature's blobs on the CDN and keeps them while it refers to them. */
  addBlobOwner(owner: BlobOwner): void;
}

export interface FilesFeatureDeps {
  config: Pick<Config, 's3' | 'dataDir' | 'databaseUrl' | 'cdnUrl' | 'maxUploadBytes'>;
  db: Kysely<DB>;
  log: Logger;
  /** The CDN listener's app: files mounts `/files/:name` and each owner's prefix on it. */
  cdn: Hono;
  /** Public base URL of the CDN, no trailing slash. */
  cdnUrl: string;
}

/**
 * Opens the configured blob store and serves it on the CDN.
 *
 * @example
 * services.files = await createFilesFeature(core);
 * services.files.addBlobOwner({ cdnPrefix: 'videos', find, refersTo });
 */
export async function createFilesFeature(deps: FilesFeatureDeps): Promise<FilesService> {
  const store = await openBlobStore(deps.config, deps.log);
  const owners: BlobOwner[] = [];
  const records = createFileRecords({ db: deps.db, store, cdnUrl: deps.cdnUrl, owners });
  const serve = createCdnHandler(store);
  const mount = (prefix: string, find: CdnLookup) =>
    deps.cdn.on(['GET', 'HEAD'], `/${prefix}/:name`, (c) => serve(c.req.raw, find));
  mount('files', records.findForCdn);
  return {
    ...records,
    store,
    maxUploadBytes: deps.config.maxUploadBytes,
    addBlobOwner(owner) {
      owners.push(owner);
      mount(owner.cdnPrefix, owner.find);
    },
  };
}

import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../observability/logger.js';
import { type BlobStore, createDiskBlobStore } from './blob-store.js';

/**
 * Opens the configured blob store: the S3-compatible object store when MODELGATE_S3_URL / S3_* is
 * set (the AWS SDK is imported only then), else `{dataDir}/files`. Warns once when that choice
 * cannot work across instances.
 *
 * @example
 * const store = await openBlobStore(config, log);
 */
export async function openBlobStore(
  config: Pick<Config, 's3' | 'dataDir' | 'databaseUrl' | 'cdnUrl'>,
  log: Logger,
): Promise<BlobStore> {
  const dir = join(config.dataDir, 'files');
  if (!config.s3) {
    // A shared database means several instances may run; each would see only its own files.
    if (config.databaseUrl) {
      log.warn(
        `files are stored in ${dir} and are not shared between instances: set MODELGATE_S3_URL (or S3_*) when more than one gateway uses this database`,
        { storage: 'local' },
      );
    }
    return createDiskBlobStore(dir);
  }
  if (!config.cdnUrl) {
    log.warn(
      'files are in a shared object store but CDN_URL is not set: file URLs name this instance, so other instances will not accept them as their own',
      { storage: 's3' },
    );
  }
  const { createS3BlobStore } = await import('./s3.js');
  return createS3BlobStore(config.s3, join(dir, 'blobs', 'tmp'));
}

/**
 * The blob store on an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Ceph RGW, …), so
 * every gateway instance sees every file. Loaded with `import()` only when one is configured: the
 * AWS SDK costs about 20 MiB of memory that a single-instance gateway never pays.
 *
 * Only the operations every S3-compatible store implements are used: PutObject (one request,
 * Content-Length known: the upload was staged to a local temp file to learn its SHA-256 anyway),
 * GetObject (with Range), HeadObject and DeleteObject, plus a presigned GetObject URL when the
 * CDN redirects. No multipart upload (one PutObject takes up to 5 GiB, above the largest video we
 * accept), no listing, no bucket management: the bucket must exist.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PRESIGN_EXPIRES_SECONDS, type S3Settings } from '../../config/storage.js';
import { type BlobStore, type StagedFile, stagedBlob, stageToFile } from './blob-store.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

function hasHeaders(request: unknown): request is { headers: Record<string, string> } {
  return typeof request === 'object' && request !== null && 'headers' in request;
}

/**
 * A PutObject whose SigV4 payload hash is the blob's SHA-256, which we already know (it is the
 * blob's name): the store verifies the bytes it received against it, and the SDK need not read the
 * stream twice nor fall back to `UNSIGNED-PAYLOAD` (which some stores refuse over plain HTTP).
 */
function putObject(bucket: string, key: string, file: StagedFile): PutObjectCommand {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: key,
    Body: createReadStream(file.path),
    ContentLength: file.size,
  });
  command.middlewareStack.add(
    (next) => (args) => {
      if (hasHeaders(args.request)) args.request.headers['x-amz-content-sha256'] = file.sha256;
      return next(args);
    },
    { step: 'build', name: 'modelgateContentSha256' },
  );
  return command;
}

function clientFor(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint ?? undefined,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials ?? undefined,
    // The SDK's default CRC32 checksums on every request are not implemented by every
    // S3-compatible store; integrity is already covered by the SigV4 payload hash.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Blobs under `{prefix}blobs/{sha256}` in the bucket; uploads are staged in `tmpDir` (local disk)
 * while hashing, then sent with one PutObject unless the same bytes are already there.
 *
 * @example
 * const store = createS3BlobStore(config.s3, '/var/lib/modelgate/files/tmp');
 * const { sha256 } = await store.put(Readable.from([Buffer.from('hi')]));
 * const url = await store.signedUrl?.(sha256, { contentType: 'image/png' });
 */
export function createS3BlobStore(settings: S3Settings, tmpDir: string): BlobStore {
  const client = clientFor(settings);
  const Bucket = settings.bucket;
  const keyOf = (sha256: string): string => {
    if (!SHA256_HEX.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return `${settings.prefix}blobs/${sha256}`;
  };

  async function size(sha256: string): Promise<number | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(sha256) }));
      return head.ContentLength ?? null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  const store: BlobStore = {
    async stage(source, options = {}) {
      const file = await stageToFile(tmpDir, source, options.maxBytes);
      return stagedBlob(file, async () => {
        // Skipping a PUT of bytes already there only saves traffic; a failed check (e.g. AWS's
        // 403 for an absent key without s3:ListBucket) must not fail the upload.
        if ((await size(file.sha256).catch(() => null)) === file.size) return;
        await client.send(putObject(Bucket, keyOf(file.sha256), file));
      });
    },
    async put(source, options) {
      const staged = await store.stage(source, options);
      await staged.commit();
      return { sha256: staged.sha256, size: staged.size };
    },
    async get(sha256, range) {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(sha256),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        // On Node the SDK's body is an http.IncomingMessage, a Readable.
        if (!(object.Body instanceof Readable)) throw new Error('S3 GetObject returned no stream');
        return object.Body;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    size,
    async exists(sha256) {
      return (await size(sha256)) !== null;
    },
    async delete(sha256) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(sha256) }));
    },
  };
  if (settings.presign) {
    store.signedUrl = (sha256, { contentType }) =>
      getSignedUrl(
        client,
        new GetObjectCommand({ Bucket, Key: keyOf(sha256), ResponseContentType: contentType }),
        { expiresIn: PRESIGN_EXPIRES_SECONDS },
      );
  }
  return store;
}

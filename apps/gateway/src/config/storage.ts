/**
 * Where stored files live: the local data directory (default) or an S3-compatible object store,
 * from MODELGATE_S3_URL or the S3_* variables; and how large an upload may be. Parsing only; the
 * files feature opens the store.
 */
import { z } from 'zod';
import { ConfigError, type Env, flagValue, readSection, variable } from './section.js';

/** Connection settings for an S3-compatible object store. */
export interface S3Settings {
  /** `https://host[:port]` (or `http://` for a local MinIO); null = AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'); blobs go to `{prefix}blobs/{sha256}`. */
  prefix: string;
  region: string;
  /** `host/bucket/key` addressing instead of `bucket.host/key` (MinIO, Ceph and most self-hosted stores). */
  forcePathStyle: boolean;
  /** null = the AWS SDK's default credential chain (instance role, AWS_* variables, profile). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** MODELGATE_S3_PRESIGN=1: the CDN answers 302 to a presigned GET URL instead of streaming. */
  presign: boolean;
}

const DEFAULT_REGION = 'us-east-1';

/** The largest object one PutObject may carry on S3 (5 GiB); we never use multipart uploads. */
export const MAX_SINGLE_PUT_BYTES = 5 * 1024 ** 3;

/** How long a presigned GET URL stays valid; the CDN's redirect is cached for half of it. */
export const PRESIGN_EXPIRES_SECONDS = 3600;

/** A yes/no parameter of MODELGATE_S3_URL. */
function urlFlag(raw: string | null, name: string): boolean | undefined {
  if (raw === null || raw === '') return undefined;
  const value = flagValue(raw);
  if (value === undefined)
    throw new ConfigError(`${name} must be 1/true or 0/false (got "${raw}")`);
  return value;
}

function prefixOf(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/**
 * `s3://KEY:SECRET@host[:port]/bucket[/prefix]?region=…&forcePathStyle=true` (https to the host),
 * or `s3+http://…` for a store without TLS. Key and secret are percent-encoded like any URL userinfo.
 */
function fromUrl(raw: string, presign: boolean): S3Settings {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('MODELGATE_S3_URL is not a valid URL');
  }
  const scheme = { 's3:': 'https:', 's3+https:': 'https:', 's3+http:': 'http:' }[url.protocol];
  if (!scheme)
    throw new ConfigError(
      `MODELGATE_S3_URL must start with s3:// or s3+http:// (got "${url.protocol}")`,
    );
  if (!url.hostname)
    throw new ConfigError('MODELGATE_S3_URL needs a host: s3://KEY:SECRET@host/bucket');
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
  if (!bucket)
    throw new ConfigError('MODELGATE_S3_URL needs a bucket: s3://KEY:SECRET@host/bucket');
  for (const name of url.searchParams.keys()) {
    if (name !== 'region' && name !== 'forcePathStyle') {
      throw new ConfigError(
        `MODELGATE_S3_URL: unknown parameter "${name}" (allowed: region, forcePathStyle)`,
      );
    }
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (Boolean(user) !== Boolean(password)) {
    throw new ConfigError(
      'MODELGATE_S3_URL: give both the access key id and the secret (KEY:SECRET@) or neither',
    );
  }
  return {
    endpoint: `${scheme}//${url.host}`,
    bucket,
    prefix: prefixOf(rest.join('/')),
    region: url.searchParams.get('region') || DEFAULT_REGION,
    forcePathStyle:
      urlFlag(url.searchParams.get('forcePathStyle'), 'MODELGATE_S3_URL forcePathStyle') ?? true,
    credentials: user ? { accessKeyId: user, secretAccessKey: password } : null,
    presign,
  };
}

export const storageVariables = {
  MODELGATE_S3_URL: variable.text(),
  S3_ENDPOINT: variable.text(),
  S3_BUCKET: variable.text(),
  S3_ACCESS_KEY_ID: variable.text(),
  S3_SECRET_ACCESS_KEY: variable.text(),
  S3_REGION: variable.text(),
  S3_PREFIX: variable.text(),
  S3_FORCE_PATH_STYLE: variable.flag(),
  MODELGATE_S3_PRESIGN: variable.flag(),
  MODELGATE_MAX_UPLOAD_BYTES: variable.int({ min: 1 }),
};

type StorageVariables = z.output<z.ZodObject<typeof storageVariables>>;

function fromVariables(env: StorageVariables, presign: boolean): S3Settings {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('S3_BUCKET is required when any S3_* variable is set');
  const endpoint = env.S3_ENDPOINT?.replace(/\/+$/, '') || null;
  if (endpoint && !/^https?:\/\/[^/]+$/.test(endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be http(s)://host[:port] (got "${endpoint}")`);
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  return {
    endpoint,
    bucket,
    prefix: prefixOf(env.S3_PREFIX ?? ''),
    region: env.S3_REGION ?? DEFAULT_REGION,
    // A custom endpoint is most often a self-hosted store that only speaks path-style.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? endpoint !== null,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    presign,
  };
}

const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_REGION',
  'S3_PREFIX',
  'S3_FORCE_PATH_STYLE',
] as const;

/** The object store to keep files in, or null for the local data directory. */
function s3SettingsOf(env: StorageVariables): S3Settings | null {
  const presign = env.MODELGATE_S3_PRESIGN ?? false;
  const variables = S3_VARIABLES.filter((name) => env[name] !== undefined);
  if (env.MODELGATE_S3_URL) {
    if (variables.length > 0) {
      throw new ConfigError(
        `set MODELGATE_S3_URL or the S3_* variables, not both (found ${variables.join(', ')})`,
      );
    }
    return fromUrl(env.MODELGATE_S3_URL, presign);
  }
  if (variables.length > 0) return fromVariables(env, presign);
  if (presign) {
    throw new ConfigError('MODELGATE_S3_PRESIGN needs an object store (MODELGATE_S3_URL or S3_*)');
  }
  return null;
}

export interface StorageSettings {
  /**
   * The shared object store for files and videos (MODELGATE_S3_URL or S3_*), or null: they stay in
   * `${dataDir}/files`, seen by this instance only.
   */
  s3: S3Settings | null;
  /** MODELGATE_MAX_UPLOAD_BYTES, default 20 MiB: the largest file upload. */
  maxUploadBytes: number;
}

export const storageSection = z
  .object({ env: z.object(storageVariables) })
  .transform(({ env }): StorageSettings => {
    const s3 = s3SettingsOf(env);
    const maxUploadBytes = env.MODELGATE_MAX_UPLOAD_BYTES ?? 20 * 1024 * 1024;
    if (s3 && maxUploadBytes > MAX_SINGLE_PUT_BYTES) {
      // The object store gets each blob in one PutObject, which S3 caps at 5 GiB.
      throw new ConfigError(
        'MODELGATE_MAX_UPLOAD_BYTES must be at most 5 GiB with an object store',
      );
    }
    return { s3, maxUploadBytes };
  });

/**
 * The object store alone, from an environment: the storage section's `s3`.
 *
 * @example
 * readStorageEnv({ MODELGATE_S3_URL: 's3+http://minio:minio123@127.0.0.1:9000/modelgate' });
 * // { endpoint: 'http://127.0.0.1:9000', bucket: 'modelgate', region: 'us-east-1', forcePathStyle: true, … }
 */
export function readStorageEnv(env: Env): S3Settings | null {
  return readSection('storage', storageSection, { env }).s3;
}

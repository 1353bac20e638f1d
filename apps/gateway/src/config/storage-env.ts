/**
 * Where stored files live: the local data directory (default) or an S3-compatible object store,
 * from MODELGATE_S3_URL or the S3_* variables. Parsing only; `files/open-store.ts` opens it.
 */

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

function flag(raw: string | null | undefined, name: string): boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (['1', 'true'].includes(raw)) return true;
  if (['0', 'false'].includes(raw)) return false;
  throw new Error(`${name} must be 1/true or 0/false (got "${raw}")`);
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
    throw new Error('MODELGATE_S3_URL is not a valid URL');
  }
  const scheme = { 's3:': 'https:', 's3+https:': 'https:', 's3+http:': 'http:' }[url.protocol];
  if (!scheme)
    throw new Error(`MODELGATE_S3_URL must start with s3:// or s3+http:// (got "${url.protocol}")`);
  if (!url.hostname) throw new Error('MODELGATE_S3_URL needs a host: s3://KEY:SECRET@host/bucket');
  const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
  if (!bucket) throw new Error('MODELGATE_S3_URL needs a bucket: s3://KEY:SECRET@host/bucket');
  for (const name of url.searchParams.keys()) {
    if (name !== 'region' && name !== 'forcePathStyle') {
      throw new Error(
        `MODELGATE_S3_URL: unknown parameter "${name}" (allowed: region, forcePathStyle)`,
      );
    }
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (Boolean(user) !== Boolean(password)) {
    throw new Error(
      'MODELGATE_S3_URL: give both the access key id and the secret (KEY:SECRET@) or neither',
    );
  }
  return {
    endpoint: `${scheme}//${url.host}`,
    bucket,
    prefix: prefixOf(rest.join('/')),
    region: url.searchParams.get('region') || DEFAULT_REGION,
    forcePathStyle:
      flag(url.searchParams.get('forcePathStyle'), 'MODELGATE_S3_URL forcePathStyle') ?? true,
    credentials: user ? { accessKeyId: user, secretAccessKey: password } : null,
    presign,
  };
}

function fromVariables(env: Record<string, string | undefined>, presign: boolean): S3Settings {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error('S3_BUCKET is required when any S3_* variable is set');
  const endpoint = env.S3_ENDPOINT?.replace(/\/+$/, '') || null;
  if (endpoint && !/^https?:\/\/[^/]+$/.test(endpoint)) {
    throw new Error(`S3_ENDPOINT must be http(s)://host[:port] (got "${endpoint}")`);
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  return {
    endpoint,
    bucket,
    prefix: prefixOf(env.S3_PREFIX ?? ''),
    region: env.S3_REGION || DEFAULT_REGION,
    // A custom endpoint is most often a self-hosted store that only speaks path-style.
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, 'S3_FORCE_PATH_STYLE') ?? endpoint !== null,
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

/**
 * The object store to keep files in, or null for the local data directory. Throws an Error naming
 * the variable when the settings are incomplete or contradictory.
 *
 * @example
 * readStorageEnv({ MODELGATE_S3_URL: 's3+http://minio:minio123@127.0.0.1:9000/modelgate' });
 * // { endpoint: 'http://127.0.0.1:9000', bucket: 'modelgate', region: 'us-east-1', forcePathStyle: true, … }
 */
export function readStorageEnv(env: Record<string, string | undefined>): S3Settings | null {
  const presign = flag(env.MODELGATE_S3_PRESIGN, 'MODELGATE_S3_PRESIGN') ?? false;
  const variables = S3_VARIABLES.filter((name) => env[name]);
  if (env.MODELGATE_S3_URL) {
    if (variables.length > 0) {
      throw new Error(
        `set MODELGATE_S3_URL or the S3_* variables, not both (found ${variables.join(', ')})`,
      );
    }
    return fromUrl(env.MODELGATE_S3_URL, presign);
  }
  if (variables.length > 0) return fromVariables(env, presign);
  if (presign)
    throw new Error('MODELGATE_S3_PRESIGN needs an object store (MODELGATE_S3_URL or S3_*)');
  return null;
}

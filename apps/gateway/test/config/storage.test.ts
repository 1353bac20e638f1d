// Which blob store the gateway is configured to open (MODELGATE_S3_URL / S3_* / the data
// directory), and the configuration errors it refuses to start with.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { readStorageEnv } from '../../src/config/storage.js';

describe('MODELGATE_S3_URL', () => {
  it('reads credentials, host, bucket, prefix, region and addressing style', () => {
    expect(
      readStorageEnv({
        MODELGATE_S3_URL:
          's3://AKIA%2FX:se%2Bcret@s3.eu-west-1.amazonaws.com/media/gw/prod/?region=eu-west-1&forcePathStyle=false',
      }),
    ).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'media',
      prefix: 'gw/prod/',
      region: 'eu-west-1',
      forcePathStyle: false,
      credentials: { accessKeyId: 'AKIA/X', secretAccessKey: 'se+cret' },
      presign: false,
    });
  });

  it('speaks plain http with s3+http://, defaults to path-style and us-east-1', () => {
    expect(
      readStorageEnv({
        MODELGATE_S3_URL: 's3+http://minio:minio123@127.0.0.1:9000/modelgate',
        MODELGATE_S3_PRESIGN: '1',
      }),
    ).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'modelgate',
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio123' },
      presign: true,
    });
  });

  it.each([
    ['https://k:s@host/bucket', 'must start with s3://'],
    ['s3://k:s@host', 'needs a bucket'],
    ['s3://k:s@host/bucket?endpoint=x', 'unknown parameter "endpoint"'],
    ['s3://k@host/bucket', 'both the access key id and the secret'],
    ['s3://k:s@host/bucket?forcePathStyle=maybe', 'forcePathStyle must be'],
  ])('refuses %s', (url, message) => {
    expect(() => loadConfig({ MODELGATE_S3_URL: url })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_S3_URL: url })).toThrow(message);
  });
});

describe('S3_* variables', () => {
  it('read a custom endpoint (path-style by default) with static credentials', () => {
    expect(
      readStorageEnv({
        S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com/',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_REGION: 'auto',
      }),
    ).toEqual({
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      bucket: 'files',
      prefix: '',
      region: 'auto',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      presign: false,
    });
  });

  it('without an endpoint or keys mean AWS itself with the default credential chain', () => {
    expect(readStorageEnv({ S3_BUCKET: 'files', S3_REGION: 'eu-central-1' })).toMatchObject({
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
    });
  });

  it.each([
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_BUCKET is required'],
    [{ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, 'go together'],
    [{ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://host' }, 'S3_ENDPOINT must be'],
    [{ S3_BUCKET: 'b', MODELGATE_S3_URL: 's3://k:s@h/b' }, 'not both'],
    [{ MODELGATE_S3_PRESIGN: '1' }, 'needs an object store'],
    [{ S3_BUCKET: 'b', MODELGATE_MAX_UPLOAD_BYTES: String(6 * 1024 ** 3) }, 'at most 5 GiB'],
  ])('refuse %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('are absent by default: files stay in the data directory', () => {
    expect(loadConfig({}).s3).toBeNull();
  });
});

// The start-up warnings about sharing files between instances, by the store the gateway opens.
import { describe, expect, it } from 'vitest';
import { readStorageEnv } from '../../../src/config/storage.js';
import { openBlobStore } from '../../../src/files/store/open.js';
import { createLogger } from '../../../src/observability/logger.js';

describe('start-up warnings', () => {
  async function warningsFor(config: {
    s3: ReturnType<typeof readStorageEnv>;
    databaseUrl: string | null;
    cdnUrl: string | null;
  }): Promise<string[]> {
    const lines: { level: string; msg: string }[] = [];
    const log = createLogger({ level: 'info', write: (line) => lines.push(JSON.parse(line)) });
    await openBlobStore({ ...config, dataDir: '/tmp/mg-storage-config' }, log);
    return lines.filter((l) => l.level === 'warn').map((l) => l.msg);
  }
  const s3 = readStorageEnv({ MODELGATE_S3_URL: 's3+http://k:s@127.0.0.1:9/b' });

  it('say once that local files are not shared when instances share a database', async () => {
    const warnings = await warningsFor({
      s3: null,
      databaseUrl: 'postgres://db/modelgate',
      cdnUrl: null,
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('not shared between instances');
    expect(warnings[0]).toContain('/tmp/mg-storage-config/files');
  });

  it('say nothing for a single embedded instance or a fully shared setup', async () => {
    expect(await warningsFor({ s3: null, databaseUrl: null, cdnUrl: null })).toEqual([]);
    expect(
      await warningsFor({ s3, databaseUrl: 'postgres://db/x', cdnUrl: 'https://cdn.example.com' }),
    ).toEqual([]);
  });

  it('ask for CDN_URL when the store is shared but file URLs name the instance', async () => {
    const warnings = await warningsFor({ s3, databaseUrl: 'postgres://db/x', cdnUrl: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('CDN_URL is not set');
  });
});

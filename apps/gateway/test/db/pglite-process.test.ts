// PGlite on disk across processes: a fresh directory is made by initdb (in a child process) and put in
// place whole; what a process wrote survives its SIGKILL; a process that opened the database still
// exits on its own, closed or not. The child runs src/db bundled with esbuild, like dist/ would.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';

const gatewayDir = fileURLToPath(new URL('../../', import.meta.url));

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** Runs `script` (ESM; `db` is the bundled src/db/database.ts + migrate.ts) in a child process. */
function runChild(
  bundle: string,
  script: string,
  dataDir: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const source = `import * as db from ${JSON.stringify(bundle)};\nconst dataDir = ${JSON.stringify(dataDir)};\n${script}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: gatewayDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, out })),
  );
}

// Every child process boots PGlite (seconds each on a busy machine).
const SLOW = 180_000;

describe('PGlite on disk, across processes', () => {
  let buildDir: string;
  let bundle: string;
  let dir: string;
  /** A migrated database made by createDatabase on a fresh directory; tests work on copies. */
  let template: string;
  const copyOfTemplate = (name: string) => {
    const dataDir = join(dir, name);
    cpSync(template, dataDir, { recursive: true });
    return dataDir;
  };

  beforeAll(async () => {
    const require = createRequire(import.meta.url);
    const esbuild = createRequire(require.resolve('tsup'))('esbuild') as EsbuildApi;
    buildDir = await mkdtemp(join(gatewayDir, 'node_modules/.cache/mg-db-test-'));
    bundle = join(buildDir, 'db.mjs');
    await esbuild.build({
      stdin: {
        contents: "export * from './src/db/database.ts'; export * from './src/db/migrate.ts';",
        resolveDir: gatewayDir,
        loader: 'ts',
      },
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
    dir = await mkdtemp(join(tmpdir(), 'mg-pglite-'));
    template = join(dir, 'template');
    const made = await createDatabase({ dataDir: template });
    await migrate(made.db, made.kind);
    await made.close();
  }, SLOW);
  afterAll(async () => {
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('makes a fresh directory a database in one piece', () => {
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${template}.init`)).toBe(false);
    expect(existsSync(`${template}.lock`)).toBe(false);
  });

  it('keeps what a SIGKILLed process wrote', { timeout: SLOW }, async () => {
    const dataDir = copyOfTemplate('killed');
    const run = await runChild(
      bundle,
      `const { db: k } = await db.createDatabase({ dataDir });
       for (let i = 0; i < 20; i++) {
         await k.insertInto('api_keys').values({ key_hash: 'h' + i, key_prefix: 'sk-', name: 'k' + i,
           role: 'user', quota: 100, used: i, created_at: 0 }).execute();
       }
       console.log('written');
       process.kill(process.pid, 'SIGKILL');`,
      dataDir,
    );
    expect(run.out).toContain('written');
    expect(run.signal).toBe('SIGKILL');

    // The dead process's lock is stale: this one takes it over.
    const reopened = await createDatabase({ dataDir });
    try {
      const rows = await reopened.db.selectFrom('api_keys').select(['name', 'used']).execute();
      expect(rows).toHaveLength(20);
      expect(rows.reduce((sum, r) => sum + r.used, 0)).toBe(190);
    } finally {
      await reopened.close();
    }
  });

  it('lets a process exit on its own after close(), and without it', {
    timeout: SLOW,
  }, async () => {
    const runs = await Promise.all(
      [true, false].map(async (close) => {
        const dataDir = copyOfTemplate(`exit-${close}`);
        const run = await runChild(
          bundle,
          `const d = await db.createDatabase({ dataDir });
           await db.migrate(d.db, d.kind);
           console.log('migrated');
           ${close ? 'await d.close();' : ''}`,
          dataDir,
        );
        return { close, dataDir, ...run };
      }),
    );
    for (const run of runs) {
      expect(run.out).toContain('migrated');
      expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
      expect(existsSync(`${run.dataDir}.lock`)).toBe(!run.close);
    }
  });

  it('refuses a non-empty directory that holds no database', async () => {
    const dataDir = join(dir, 'not-a-db');
    await rm(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'notes.txt'), 'hello');
    await expect(createDatabase({ dataDir })).rejects.toThrow(/not empty and holds no PGlite/);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../src/db/pglite-lock.js';

describe('PGlite data directory lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a directory held by a live process and takes over a stale lock', async () => {
    const dataDir = join(dir, 'db');
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    });
    try {
      writeFileSync(`${dataDir}.lock`, String(other.pid));
      expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    // The holder is gone: its lock is stale now.
    const release = lockDataDir(dataDir);
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    release();
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
  });
});

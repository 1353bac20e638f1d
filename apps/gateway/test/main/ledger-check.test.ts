// `ledger check` as an operator runs it: pnpm runs the script inside apps/gateway, yet the check
// reads the books `pnpm start` keeps in the repository root's .modelgate; beside a live gateway on
// the embedded database it says in one line to stop the gateway (exit 2), never a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerCheckCommand } from '../../src/commands/ledger-check.js';
import { defaultDataDir } from '../../src/config/database.js';
import {
  buildGatewayMain,
  type ChildGateway,
  freePort,
  startChildGateway,
} from '../support/child-gateway.js';

/** `node main.js ledger check` in `cwd` with no data directory configured. */
function ledgerCheck(
  main: string,
  cwd: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [main, 'ledger', 'check'], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('exit', (code) => done({ code, out, err }));
  });
}

describe('the default data directory', () => {
  it('is the repository root’s .modelgate from the root and from apps/gateway', () => {
    const root = mkdtempSync(join(tmpdir(), 'mg-root-'));
    try {
      writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
      mkdirSync(join(root, 'apps', 'gateway'), { recursive: true });
      expect(defaultDataDir(root)).toBe(join(root, '.modelgate'));
      expect(defaultDataDir(join(root, 'apps', 'gateway'))).toBe(join(root, '.modelgate'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('is ./.modelgate outside a workspace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-plain-'));
    try {
      expect(defaultDataDir(dir)).toBe(join(dir, '.modelgate'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ledger check where no gateway has run', () => {
  it('says so in one line (exit 2) instead of creating an empty ledger that balances', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'mg-no-ledger-'));
    const dataDir = join(parent, 'data');
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await ledgerCheckCommand({ MODELGATE_DATA_DIR: dataDir }, [], {
        out: (text) => out.push(text),
        err: (text) => err.push(text),
      });
      expect(code).toBe(2);
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]).toContain(`no ledger in ${dataDir}`);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('ledger check run inside apps/gateway', () => {
  let built: Awaited<ReturnType<typeof buildGatewayMain>>;
  let root: string;
  let packageDir: string;
  let gateway: ChildGateway | undefined;

  beforeAll(async () => {
    built = await buildGatewayMain();
    root = mkdtempSync(join(tmpdir(), 'mg-ledger-root-'));
    writeFileSync(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'apps/*'\n");
    packageDir = join(root, 'apps', 'gateway');
    mkdirSync(packageDir, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    gateway?.process.kill('SIGKILL');
    await built?.cleanup();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('says in one line to stop a live gateway, then reads the root’s books', {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    gateway = await startChildGateway(built.main, {
      PORT: String(port),
      CDN_PORT: String(await freePort()),
      MODELGATE_DATA_DIR: join(root, '.modelgate'),
    });
    const admin = readFileSync(join(root, '.modelgate', 'admin-key'), 'utf8').trim();
    const created = await fetch(`${gateway.url}/v1/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ledger-probe', quota: 1_000_000 }),
    });
    expect(created.status).toBe(200);

    const busy = await ledgerCheck(built.main, packageDir);
    expect(busy.code).toBe(2);
    expect(busy.err.trim().split('\n')).toHaveLength(1);
    expect(busy.err).toContain('stop the gateway first');
    expect(busy.err).not.toMatch(/\n\s+at /);

    gateway.process.kill('SIGTERM');
    expect((await gateway.exited).code).toBe(0);
    gateway = undefined;

    const checked = await ledgerCheck(built.main, packageDir);
    expect(checked.err).toBe('');
    expect(checked.code).toBe(0);
    expect(checked.out).toContain('ledger-probe');
    expect(existsSync(join(packageDir, '.modelgate'))).toBe(false);
  });
});

// This app's README, executed: its commands are the root's scripts, both `pnpm start` and `pnpm web`
// build what the app imports (`pnpm start` then the dev server failed when @modelgate/react had
// never been built), the dev server serves the app with every import resolved, and the curl line
// makes a key on a real gateway.
import { execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../packages/stream/test/gateway.js';
import {
  rootScripts as readRootScripts,
  readSnippets,
  substitute,
  unknownPnpmCommands,
} from '../../../scripts/readme-snippets.js';

const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(appRoot, '..', '..');
const [commands, curl] = readSnippets(join(appRoot, 'README.md'), ['sh']);
const rootScripts = readRootScripts(repoRoot);

describe('README: run it from the repository', () => {
  it('names root scripts that build what the demo imports before serving it', () => {
    expect(commands!.code).toMatch(/^pnpm install\npnpm start .*\npnpm web /);
    expect(unknownPnpmCommands(commands!, repoRoot)).toEqual([]);
    // `pnpm start` then `pnpm --filter @modelgate/web dev` must find @modelgate/react built.
    expect(rootScripts.start).toContain('--filter=@modelgate/web^...');
    expect(rootScripts.web).toContain('--filter=@modelgate/web^...');
  });

  it('`pnpm web` serves the app with every import resolved', async () => {
    // The script is "build what the demo imports && serve it". The build half is turbo's, already
    // done before this test runs (and checked above); running a second turbo inside the test run
    // would rewrite dist/ files other tests are reading. The serve half runs as pnpm would run it:
    // `sh -c` at the root with the root's binaries on PATH.
    const serve = rootScripts.web!.split(' && ').at(-1)!;
    expect(serve).toMatch(/vite/);
    const child = spawn('sh', ['-c', serve], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH}`,
        NO_COLOR: '1', // plain "Local: http://…" lines
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const check = setInterval(() => {
          const local = /Local:\s+(http:\/\/[^\s/]+\/)/.exec(output);
          if (local) {
            clearInterval(check);
            resolve(local[1]!);
          }
        }, 100);
        child.on('exit', (code) => {
          clearInterval(check);
          reject(new Error(`${serve} exited with ${code}:\n${output}`));
        });
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/src/main.tsx');
      // Vite compiles a module on request; an import it cannot resolve is a 500 here.
      const panel = await fetch(new URL('/src/ChatPanel.tsx', url));
      expect(panel.status, output).toBe(200);
      expect(await panel.text()).toMatch(/packages\/react\/dist\/index\.js/);
    } finally {
      // The whole group (sh, turbo, vite); already gone when the script failed.
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    }
  }, 60_000);
});

describe('README: make a key', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway?.close());

  it('the curl line makes a key with 1,000 credits', async () => {
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-c', substitute(curl!.code, { 'http://localhost:8080': gateway.url })],
      { env: { ...process.env, ADMIN_KEY: gateway.adminKey } },
    );
    const { key } = JSON.parse(stdout) as { key: string };
    const balance = await createClient({
      baseUrl: gateway.url,
      apiKey: key,
    }).billing.creditGrants();
    expect(balance.total_granted).toBe(1000);
  });
});

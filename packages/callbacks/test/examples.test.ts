// Runs every README example as its own Node process against the built package (self-reference
// `@modelgate/callbacks` resolves to dist/, as it would for a user).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

beforeAll(async () => {
  if (!existsSync(`${packageDir}dist/index.js`) || !existsSync(`${packageDir}dist/node.js`)) {
    await run('pnpm', ['exec', 'tsup'], { cwd: packageDir });
  }
}, 60_000);

async function example(name: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [`examples/${name}`], {
    cwd: packageDir,
    env: withoutSecret(),
  });
  return stdout.trim().split('\n');
}

describe('README examples', () => {
  it('verify.mjs verifies, then refuses a tampered body', async () => {
    expect(await example('verify.mjs')).toEqual([
      'verified video.task.completed vt_example',
      'refused invalid_signature',
    ]);
  });

  it('node-http.mjs receives one callback on a real server', async () => {
    expect(await example('node-http.mjs')).toEqual([
      'received video.task.failed vt_node',
      'answered 204',
    ]);
  });

  it('fetch-handler.mjs accepts a signed Request and refuses a forged one', async () => {
    expect(await example('fetch-handler.mjs')).toEqual([
      'received video.task.cancelled vt_fetch',
      'answered 204',
      'answered 401 invalid_signature',
    ]);
  });
});

function withoutSecret(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.MODELGATE_CALLBACK_SECRET;
  return env;
}

describe('the fetch entry point', () => {
  it('imports nothing from Node (runs on edge runtimes, Deno, Bun)', async () => {
    const { readFile } = await import('node:fs/promises');
    const seen = new Set<string>();
    const pending = ['index.js'];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const code = await readFile(`${packageDir}dist/${file}`, 'utf8');
      expect(code, file).not.toMatch(/from\s*["']node:|require\(|\bBuffer\b|\bprocess\./);
      for (const match of code.matchAll(/from\s*["']\.\/([^"']+)["']/g)) pending.push(match[1]!);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});

// Runs every README snippet as its own Node process against the built package (self-reference
// `@modelgate/callbacks` resolves to dist/, as it would for a user), with the repository's shared
// snippet runner.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSnippets, runSnippet } from '../../../scripts/readme-snippets.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

beforeAll(async () => {
  if (!existsSync(`${packageDir}dist/index.js`) || !existsSync(`${packageDir}dist/node.js`)) {
    await run('pnpm', ['exec', 'tsup'], { cwd: packageDir });
  }
}, 60_000);

const snippets = readSnippets(`${packageDir}README.md`, ['js']);

/** The README snippet whose first line (a comment) starts with `title`, run; its output lines. */
async function example(title: string): Promise<string[]> {
  const snippet = snippets.find((s) => s.code.startsWith(`// ${title}`));
  if (!snippet) throw new Error(`README.md has no snippet starting with "// ${title}"`);
  // Empty: each snippet makes its own secret (one set in the environment may not be well-formed).
  const stdout = await runSnippet(packageDir, snippet, { env: { MODELGATE_CALLBACK_SECRET: '' } });
  return stdout.trim().split('\n');
}

describe('README examples', () => {
  it('has three snippets, each run below', () => {
    expect(snippets).toHaveLength(3);
  });

  it('verifying by hand verifies a task event and a budget alert, then refuses a tampered body', async () => {
    expect(await example('Verify a callback by hand')).toEqual([
      'verified video.task.completed vt_example',
      'verified budget.threshold team 3 at 80 %',
      'refused invalid_signature',
    ]);
  });

  it('the Node receiver gets one callback on a real server', async () => {
    expect(await example('A Node receiver')).toEqual([
      'received video.task.failed vt_node',
      'answered 204',
    ]);
  });

  it('the fetch handler accepts a signed Request and refuses a forged one', async () => {
    expect(await example('A fetch-style receiver')).toEqual([
      'received video.task.cancelled vt_fetch',
      'answered 204',
      'answered 401 invalid_signature',
    ]);
  });
});

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

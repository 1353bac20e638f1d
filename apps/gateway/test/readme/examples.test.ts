/**
 * Every example of the README that a reader runs, in order, in one bash shell
 * (`set -euo pipefail`), against a fresh demo-mode gateway (its own database and free ports), from
 * a directory holding what they read: the admin key file a first start writes and the pictures
 * they upload. `curl` fails on any HTTP error status (`--fail-with-body`), so an example that
 * answers 4xx — a key restricted away from the next example's model, a date aged out of a range —
 * fails here, as does any command that exits non-zero.
 *
 * Left out, and why: "Run it" (install and start: what this test does itself), the S3 variables
 * (configuration, not a command), `ledger:check` (test/main/ledger-check.test.ts runs it) and the
 * agent CLIs' commands (`codex`, `claude`: the compat package installs and drives those clients).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRaster, rasterToPng } from '@modelgate/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSnippets, substitute } from '../../../../scripts/readme-snippets.js';
import { fill, squarePng } from '../images/pictures.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const README = join(fileURLToPath(new URL('../..', import.meta.url)), 'README.md');

/** Blocks a reader does not run as commands against a started gateway. */
const notRun = (code: string) =>
  code.includes('pnpm start') ||
  code.includes('S3_BUCKET') ||
  code.includes('ledger:check') ||
  AGENT_CLIS.test(code);

/** The agent CLIs' examples: compat/test/ installs those clients and drives them itself. */
const AGENT_CLIS = /^\s*(\S+=\S+\s+)*(codex|claude)\s/m;

/** The reader's shell: no MODELGATE_* or DATABASE_URL from the test's own environment. */
function readerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('MODELGATE_') || name === 'DATABASE_URL') delete env[name];
  }
  return env;
}

describe('the README’s examples, in order, on a fresh start', () => {
  let gw: TestGateway;
  let work: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    work = mkdtempSync(join(tmpdir(), 'mg-readme-all-'));
    mkdirSync(join(work, '.modelgate'));
    writeFileSync(join(work, '.modelgate', 'admin-key'), gw.adminKey);
    for (const name of ['frame.png', 'room.png', 'otter.png']) {
      writeFileSync(join(work, name), squarePng(256));
    }
    const mask = createRaster(256, 256, [0, 0, 0, 255]);
    fill(mask, { x: 128, y: 0, w: 128, h: 256 }, [0, 0, 0, 0]);
    writeFileSync(join(work, 'mask.png'), rasterToPng(mask, false));
  });
  afterAll(async () => {
    await gw?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('every sh block runs, and no request answers an error status', {
    timeout: 60_000,
  }, async () => {
    const local = {
      'http://localhost:8080': gw.url,
      'localhost:8080': gw.url.replace(/^http:\/\//, ''),
    };
    const blocks = readSnippets(README, ['sh']).filter((block) => !notRun(block.code));
    expect(blocks.length).toBeGreaterThan(8);
    const script = blocks
      .map((block) => `# README.md:${block.line}\n${substitute(block.code, local)}`)
      .join('\n');
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        'bash',
        [
          '-c',
          `set -euo pipefail\ntrap 'echo "failed: $BASH_COMMAND" >&2' ERR\ncurl() { command curl --fail-with-body "$@"; }\n${script}`,
        ],
        {
          cwd: work,
          timeout: 55_000,
          maxBuffer: 64 * 1024 * 1024,
          env: readerEnv(),
        },
        (error, stdout, stderr) =>
          done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result.stderr, result.stdout.slice(-2_000)).toBe('');
    expect(result.code).toBe(0);
    // What the chain produced: a key that streamed claude-haiku-4-5, a usage report over a range
    // the API accepts, a finished video downloaded, a revoked throwaway key.
    expect(result.stdout).toContain('"object":"credit_summary"');
    expect(result.stdout).toContain('"object":"usage_report"');
    expect(result.stdout).toContain('"model":"claude-haiku-4-5"');
    expect(result.stdout).toContain('"status":"revoked"');
    expect(result.stdout).toContain('"status":"completed"');
  });
});

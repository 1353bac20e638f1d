/**
 * Codex CLI (`@openai/codex`), unchanged, running `codex exec` against a gateway started as
 * `pnpm start` starts it, through a `model_providers` entry with `wire_api = "responses"`, on a
 * GPT-style and a Claude-style model. Its home is a temporary directory; analytics, feedback and
 * update checks are off, and it talks only to the test's gateway. Every request it sent must be
 * answered 2xx (the gateway's access log says), and it must print the model's answer.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const CODEX = join(
  dirname(createRequire(import.meta.url).resolve('@openai/codex/package.json')),
  'bin',
  'codex.js',
);
const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

function configToml(baseUrl: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "modelgate"',
    'check_for_update_on_startup = false',
    // Web search is a hosted tool the gateway's upstreams cannot run (the gateway refuses it).
    'web_search = "disabled"',
    '',
    '[model_providers.modelgate]',
    'name = "modelgate"',
    `base_url = "${baseUrl}/v1"`,
    'env_key = "MODELGATE_API_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
  ].join('\n');
}

/** Runs `codex exec` to its end; its stdout and stderr. */
function codexExec(home: string, workdir: string, key: string, prompt: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(
      process.execPath,
      [CODEX, 'exec', '--skip-git-repo-check', '--sandbox', 'read-only', '--cd', workdir, prompt],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          CODEX_HOME: home,
          MODELGATE_API_KEY: key,
          NO_COLOR: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** The gateway's access-log lines for `/v1/…` paths. */
function accessLog(gw: StartedGateway): { path: string; status: number }[] {
  return gw.output
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; path?: string; status?: number };
        return entry.path?.startsWith('/v1/') && typeof entry.status === 'number'
          ? [{ path: entry.path, status: entry.status }]
          : [];
      } catch {
        return [];
      }
    });
}

describe('Codex CLI codex exec', () => {
  let gw: StartedGateway;
  let key: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    gw = await startGateway({ LOG_LEVEL: 'info' });
    key = (await gw.createKey()).key;
  });
  afterAll(async () => {
    await gw?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.each(MODELS)('answers a prompt on %s, every request 2xx', async (model) => {
    const home = await mkdtemp(join(tmpdir(), 'mg-codex-home-'));
    const work = await mkdtemp(join(tmpdir(), 'mg-codex-work-'));
    dirs.push(home, work);
    await writeFile(join(home, 'config.toml'), configToml(gw.url, model));
    const before = accessLog(gw).length;
    const result = await codexExec(home, work, key, 'Say hello in one short sentence.');
    // The test's own key creation may log late; everything else is Codex's.
    const sent = accessLog(gw)
      .slice(before)
      .filter((l) => l.path !== '/v1/token');
    const transcript = `${result.stdout}\n${result.stderr}`;
    // The simulated model calls one of Codex's tools first, then answers: at least two turns.
    expect(sent.length, transcript).toBeGreaterThanOrEqual(2);
    expect(
      sent.filter((l) => l.status >= 300),
      transcript,
    ).toEqual([]);
    expect(
      sent.every((l) => l.path === '/v1/responses'),
      JSON.stringify(sent),
    ).toBe(true);
    expect(result.code, transcript).toBe(0);
    // The final message goes to stdout: the simulated model's words, not empty.
    expect(result.stdout.trim().length, transcript).toBeGreaterThan(0);
  });
});

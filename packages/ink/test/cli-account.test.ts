// `modelgate token create`, `chat --json`, the admin key's balance and the config file's profiles.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@modelgate/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function configHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-ink-profiles-'));
  dirs.push(dir);
  return dir;
}

describe('modelgate token create', () => {
  it('makes a key with the admin key; the new key has the quota in credits', async () => {
    const result = await runCli(['token', 'create', '--name', 'from-cli', '--quota', '2.5'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^sk-\w+\n$/);
    expect(result.stderr).toMatch(/created key \d+ "from-cli" with 2\.5 credits/);
    const created = createClient({ baseUrl: gateway.url, apiKey: result.stdout.trim() });
    const summary = await created.billing.creditGrants();
    expect(summary.total_granted).toBe(2.5);
  });

  it("prints the gateway's 401 for a key that is not the admin's", async () => {
    const result = await runCli(['token', 'create', '--name', 'x', '--quota', '1'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.userKey },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^modelgate: 40[13] \w+: .+\n$/);
  });
});

describe('modelgate chat --json', () => {
  it('prints one chat.completion document', async () => {
    const result = await runCli(['chat', 'Say hi', '--json', '-m', 'gpt-4o-mini'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey },
    });
    expect(result.code).toBe(0);
    const completion = JSON.parse(result.stdout) as {
      object: string;
      choices: { message: { content: string } }[];
      usage: { total_tokens: number };
    };
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content.length).toBeGreaterThan(0);
    expect(completion.usage.total_tokens).toBeGreaterThan(0);
  });
});

describe('the admin key balance', () => {
  it('is unlimited, not 0 credits', async () => {
    const result = await runCli(['balance'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.adminKey },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^unlimited credits \([\d.,]+ used\)\n$/);
  });
});

describe('profiles', () => {
  it('config set/use/get/list; precedence flags > env > profile', async () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    const set = (profile: string, key: string, value: string) =>
      runCli(['config', 'set', key, value, '--profile', profile], { env });
    expect((await set('local', 'baseUrl', gateway.url)).code).toBe(0);
    await set('local', 'apiKey', gateway.userKey);
    await set('local', 'model', 'claude-haiku-4-5');
    await set('elsewhere', 'baseUrl', 'http://127.0.0.1:9');

    const path = join(env.XDG_CONFIG_HOME, 'modelgate', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(path, 'utf8')) as { current: string };
    // The first profile written becomes the current one.
    expect(file.current).toBe('local');

    expect((await runCli(['config', 'get', 'model'], { env })).stdout).toBe('claude-haiku-4-5\n');
    const models = await runCli(['models'], { env });
    expect(models.code).toBe(0);

    // env beats the profile; a flag beats env.
    const fromEnv = await runCli(['config', 'get', 'model'], {
      env: { ...env, MODELGATE_MODEL: 'gpt-4o' },
    });
    expect(fromEnv.stdout).toBe('gpt-4o\n');
    const fromFlag = await runCli(['config', 'get', 'model', '-m', 'gpt-4.1-mini'], {
      env: { ...env, MODELGATE_MODEL: 'gpt-4o' },
    });
    expect(fromFlag.stdout).toBe('gpt-4.1-mini\n');

    expect((await runCli(['config', 'use', 'elsewhere'], { env })).code).toBe(0);
    const list = await runCli(['config', 'list'], { env });
    expect(list.stdout).toBe(
      `* elsewhere  http://127.0.0.1:9  -\n  local      ${gateway.url}  claude-haiku-4-5\n`,
    );
    // The current profile points at a dead port; --profile picks the other one for one run.
    const down = await runCli(['balance'], { env });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^modelgate: connection_error: /);
    const balance = await runCli(['balance', '--profile', 'local'], { env });
    expect(balance.stdout).toMatch(/credits left \(100 granted/);

    const unknown = await runCli(['balance', '--profile', 'nope'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no profile "nope"');
  });

  it('a malformed config file is reported with its path (exit 4)', async () => {
    const env = { XDG_CONFIG_HOME: configHome() };
    await runCli(['config', 'set', 'model', 'gpt-4o'], { env });
    const path = join(env.XDG_CONFIG_HOME, 'modelgate', 'config.json');
    writeFileSync(path, '{ not json');
    const result = await runCli(['models'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`${path} is not valid JSON`);
  });
});

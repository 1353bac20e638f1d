// `modelgate keys list|show|set|revoke` against the test gateway, with its admin key.
import { randomUUID } from 'node:crypto';
import { type ApiKey, createClient } from '@modelgate/core';
import { zApiKey, zApiKeyList } from '@modelgate/core/zod';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey };

/** A fresh key with a name no other test uses; `quota` in units. */
async function newKey(quota: number, extra: { rpm?: number } = {}) {
  return admin.tokens.create({ name: `cli-keys-${randomUUID().slice(0, 8)}`, quota, ...extra });
}

function chat(apiKey: string) {
  return runCli(['chat', 'Say hi', '-m', 'gpt-4o-mini'], {
    env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: apiKey },
  });
}

function lineOf(stdout: string, id: number): string | undefined {
  return stdout.split('\n').find((line) => line.startsWith(`${id}  `));
}

describe('modelgate keys list', () => {
  it("shows a key's used/quota in credits after a chat made with it", async () => {
    const token = await newKey(2_000_000);
    expect((await chat(token.key)).code).toBe(0);
    const balance = await createClient({
      baseUrl: gateway.url,
      apiKey: token.key,
    }).billing.creditGrants();
    expect(balance.total_used).toBeGreaterThan(0);

    const result = await runCli(['keys', 'list', '--all'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const line = lineOf(result.stdout, token.id);
    const [id, name, prefix, ...rest] = line?.split('  ') ?? [];
    expect([id, name]).toEqual([String(token.id), token.name]);
    expect(token.key.startsWith(prefix ?? '-')).toBe(true);
    const left = Number((2 - balance.total_used).toFixed(6));
    expect(rest).toEqual(['active', `${balance.total_used}/2 credits`, `${left} left`]);
    // Piped output is plain lines: no tabs, no padding.
    expect(result.stdout).not.toMatch(/\t| {3}/);
  });

  it("--json is the gateway's page; --limit sets its size", async () => {
    await newKey(1_000_000);
    await newKey(1_000_000);
    const result = await runCli(['keys', 'list', '--limit', '2', '--json'], { env });
    expect(result.code).toBe(0);
    const page = zApiKeyList.parse(JSON.parse(result.stdout));
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('--all follows next_cursor to the last page: every key, none twice', async () => {
    const created = await Promise.all([1, 2, 3, 4, 5].map(() => newKey(1_000_000)));
    const json = await runCli(['keys', 'list', '--limit', '2', '--all', '--json'], { env });
    expect(json.code).toBe(0);
    const list = zApiKeyList.parse(JSON.parse(json.stdout));
    const ids = list.data.map((key) => key.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(created.map((token) => token.id)));
    expect(ids.length).toBeGreaterThan(5);
    expect(list).toMatchObject({ has_more: false, next_cursor: null });

    const text = await runCli(['keys', 'list', '--limit', '2', '--all'], { env });
    const textIds = text.stdout
      .trimEnd()
      .split('\n')
      .map((line) => Number(line.split('  ')[0]));
    expect(new Set(textIds).size).toBe(textIds.length);
    expect(textIds).toEqual(expect.arrayContaining(ids));
  });

  it('--status filters; a bad status or limit is a usage error (exit 2)', async () => {
    const token = await newKey(1_000_000);
    await admin.keys.revoke(token.id);
    const revoked = await runCli(['keys', 'list', '--status', 'revoked', '--all'], { env });
    expect(lineOf(revoked.stdout, token.id)).toContain('  revoked  ');
    expect(revoked.stdout).not.toMatch(/ {2}active {2}/);
    for (const args of [['--status', 'gone'], ['--limit', 'x'], ['extra']]) {
      const bad = await runCli(['keys', 'list', ...args], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('Usage: modelgate');
    }
  });
});

describe('modelgate keys set', () => {
  it('--quota tops a key up: 402 before, 200 after', async () => {
    const token = await newKey(1);
    const before = await chat(token.key);
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/^modelgate: 402 \w+: /);

    const set = await runCli(['keys', 'set', String(token.id), '--quota', '50'], { env });
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toMatch(
      new RegExp(
        `^${token.id} {2}${token.name} {2}sk-\\w+ {2}active {2}0/50 credits {2}50 left\n$`,
      ),
    );
    expect((await admin.keys.retrieve(token.id)).quota).toBe(50_000_000);
    expect((await chat(token.key)).code).toBe(0);
  });

  it('--rpm none clears the limit, --rpm N sets it; --json prints the key', async () => {
    const token = await newKey(1_000_000, { rpm: 5 });
    const set = await runCli(['keys', 'set', String(token.id), '--rpm', 'none', '--json'], { env });
    expect(set.code).toBe(0);
    expect(zApiKey.parse(JSON.parse(set.stdout))).toMatchObject({ id: token.id, rpm: null });
    expect((await admin.keys.retrieve(token.id)).rpm).toBeNull();
    await runCli(['keys', 'set', String(token.id), '--rpm', '7', '--tpm', '1000'], { env });
    expect(await admin.keys.retrieve(token.id)).toMatchObject({ rpm: 7, tpm: 1000 });
  });

  it('--models, --name and --expires; all and never clear them', async () => {
    const token = await newKey(1_000_000);
    const id = String(token.id);
    const args = ['--models', 'gpt-4o-mini,gpt-4o', '--name', 'renamed', '--expires', '2099-01-01'];
    expect((await runCli(['keys', 'set', id, ...args], { env })).code).toBe(0);
    expect(await admin.keys.retrieve(token.id)).toMatchObject({
      name: 'renamed',
      models: ['gpt-4o-mini', 'gpt-4o'],
      expires_at: Date.UTC(2099, 0, 1) / 1000,
    });
    await runCli(['keys', 'set', id, '--models', 'all', '--expires', 'never'], { env });
    expect(await admin.keys.retrieve(token.id)).toMatchObject({ models: null, expires_at: null });
  });

  it('a quota below what the key used: exit 1, 409 quota_below_used', async () => {
    const token = await newKey(1_000_000);
    expect((await chat(token.key)).code).toBe(0);
    const result = await runCli(['keys', 'set', String(token.id), '--quota', '0.000001'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^modelgate: 409 quota_below_used: .+\n$/);
    expect((await admin.keys.retrieve(token.id)).quota).toBe(1_000_000);
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    for (const args of [
      ['set', 'abc', '--quota', '1'],
      ['set', '7'],
      ['set', '7', '--quota', '0'],
      ['set', '7', '--rpm', 'lots'],
      ['set', '7', '--expires', 'tomorrow'],
      ['show'],
      ['revoke', '7', '8'],
      ['drop', '7'],
    ]) {
      const result = await runCli(['keys', ...args], { env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^modelgate: [^\n]+\n\nUsage: modelgate/);
    }
  });
});

describe('modelgate keys show / revoke', () => {
  it('show prints the line; revoke makes the key answer 401', async () => {
    const token = await newKey(1_000_000);
    const show = await runCli(['keys', 'show', String(token.id)], { env });
    expect(show.stdout).toMatch(
      new RegExp(`^${token.id} {2}${token.name} {2}sk-\\w+ {2}active {2}`),
    );
    const revoke = await runCli(['keys', 'revoke', String(token.id)], { env });
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toMatch(/ {2}revoked {2}0\/1 credits {2}1 left\n$/);
    const refused = await chat(token.key);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^modelgate: 401 revoked_api_key: /);
  });

  it('revoking the admin key it runs with: exit 1, 409 revoking_own_key', async () => {
    const self = await findAdminKey();
    const result = await runCli(['keys', 'revoke', String(self.id)], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^modelgate: 409 revoking_own_key: .+\n$/);
    expect((await admin.keys.retrieve(self.id)).status).toBe('active');
  });

  it("an unknown id is the gateway's 404; a normal key gets 403", async () => {
    const unknown = await runCli(['keys', 'show', '999999'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^modelgate: 404 key_not_found: /);
    const user = await runCli(['keys', 'list'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.userKey },
    });
    expect(user.code).toBe(1);
    expect(user.stderr).toMatch(/^modelgate: 403 \w+: /);
  });

  it('with only a user API key set, says an admin key is needed and how to give it', async () => {
    const userEnv = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey };
    for (const args of [
      ['keys', 'list'],
      ['keys', 'show', '1'],
      ['token', 'create', '--name', 'x', '--quota', '1'],
    ]) {
      const result = await runCli(args, { env: userEnv });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).not.toContain('Missing API key');
      expect(result.stderr).toMatch(/needs an admin key \(MODELGATE_API_KEY is a user key/);
      expect(result.stderr).toContain('MODELGATE_ADMIN_KEY');
      expect(result.stderr).toContain('--admin-key');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

async function findAdminKey(): Promise<ApiKey> {
  let after: string | undefined;
  do {
    const page = await admin.keys.list({ limit: 100, ...(after ? { after } : {}) });
    const found = page.data.find(
      (key) => key.role === 'admin' && gateway.adminKey.startsWith(key.key_prefix),
    );
    if (found) return found;
    after = page.next_cursor ?? undefined;
  } while (after);
  throw new Error('the admin key is not listed');
}

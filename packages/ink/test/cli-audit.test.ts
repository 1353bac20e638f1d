// `modelgate audit` against the test gateway, with its admin key: the change just made is the
// newest entry, with its values before and after.
import { randomUUID } from 'node:crypto';
import { createClient } from '@modelgate/core';
import { zAuditEntryList } from '@modelgate/core/zod';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey };

describe('modelgate audit', () => {
  it('prints who changed a key and how, newest first, and --json the page', async () => {
    const token = await admin.tokens.create({
      name: `cli-audit-${randomUUID().slice(0, 8)}`,
      quota: 1_000_000,
    });
    expect((await runCli(['keys', 'set', String(token.id), '--rpm', '60'], { env })).code).toBe(0);

    const result = await runCli(['audit', '--key', String(token.id)], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [update, create] = result.stdout.trim().split('\n');
    expect(update).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ  key\\.update  key ${token.id}  by key \\d+  rpm null → 60`,
      ),
    );
    expect(create).toContain(`key.create  key ${token.id}`);
    expect(create).toContain('quota 1000000');

    const json = await runCli(
      ['audit', '--key', String(token.id), '--action', 'key.update', '--json'],
      {
        env,
      },
    );
    const page = zAuditEntryList.parse(JSON.parse(json.stdout));
    expect(page.data.map((e) => e.action)).toEqual(['key.update']);
  });

  it('refuses a bad --action before asking, and needs the admin key', async () => {
    const bad = await runCli(['audit', '--action', 'key.delete'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--action must be one of key.create');
    const user = await admin.tokens.create({ name: 'cli-audit-user', quota: 1_000 });
    const refused = await runCli(['audit'], {
      env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: user.key },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('admin');
  });
});

// `modelgate teams …`, `keys set --team`, `budget` and `balance` against the test gateway: a team
// with a daily budget, a key in it, spend, and what each command then says.
import { randomUUID } from 'node:crypto';
import { createClient } from '@modelgate/core';
import { zCreditSummary, zTeam } from '@modelgate/core/zod';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });
const adminEnv = { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey };

/** The ISO minute a daily budget resets at: the next UTC midnight (the gateway's default zone). */
function nextMidnight(): string {
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return `${new Date(next).toISOString().slice(0, 16)}Z`;
}

describe('modelgate teams', () => {
  it('creates a team with a budget, puts a key in it, and shows what the key spent', async () => {
    const name = `cli-team-${randomUUID().slice(0, 8)}`;
    const created = await runCli(
      ['teams', 'create', '--name', name, '--budget', '2/day', '--json'],
      {
        env: adminEnv,
      },
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const team = zTeam.parse(JSON.parse(created.stdout));
    expect(team).toMatchObject({ name, keys: 0, budget: { amount: 2_000_000, period: 'day' } });

    const token = await admin.tokens.create({ name: `${name}-key`, quota: 10_000_000 });
    const joined = await runCli(['keys', 'set', String(token.id), '--team', String(team.id)], {
      env: adminEnv,
    });
    expect(joined).toMatchObject({ code: 0, stderr: '' });

    const userEnv = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: token.key };
    expect((await runCli(['chat', 'Say hi', '-m', 'gpt-4o-mini'], { env: userEnv })).code).toBe(0);
    const summary = zCreditSummary.parse(
      await createClient({ baseUrl: gateway.url, apiKey: token.key }).billing.creditGrants(),
    );
    const spent = summary.budgets.team?.spent ?? 0;
    expect(spent).toBeGreaterThan(0);
    expect(summary.budgets.key).toBeNull();

    const budget = await runCli(['budget'], { env: userEnv });
    expect(budget).toMatchObject({ code: 0, stderr: '' });
    expect(budget.stdout).toBe(
      `team budget: ${spent}/2 credits this day, resets ${nextMidnight()}\n`,
    );
    const balance = await runCli(['balance'], { env: userEnv });
    expect(balance.stdout.split('\n')[1]).toBe(budget.stdout.trimEnd());

    const list = await runCli(['teams', 'list'], { env: adminEnv });
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout.split('\n')).toContain(
      `${team.id}  ${name}  1 key  ${spent}/2 credits this day, resets ${nextMidnight()}`,
    );
  });

  it('changes a budget, refuses to delete a team with keys, then deletes it', async () => {
    const team = await admin.teams.create({ name: `cli-team-${randomUUID().slice(0, 8)}` });
    const set = await runCli(['teams', 'set', String(team.id), '--budget', '5/week'], {
      env: adminEnv,
    });
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toMatch(new RegExp(`^${team.id}  .*  0 keys  0/5 credits this week, `));

    const token = await admin.tokens.create({ name: 'cli-team-member', quota: 1_000_000 });
    await admin.keys.update(token.id, { team_id: team.id });
    const refused = await runCli(['teams', 'delete', String(team.id)], { env: adminEnv });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/409|team_has_keys|keys/);

    await admin.keys.update(token.id, { team_id: null });
    const deleted = await runCli(['teams', 'delete', String(team.id)], { env: adminEnv });
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted team ${team.id}\n` });
  });

  it('checks its arguments before any request', async () => {
    const bad = await runCli(['teams', 'create', '--name', 'x', '--budget', '5/year'], {
      env: adminEnv,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget must be credits per day, week or month');
    const noAdmin = await runCli(['teams', 'list'], { env: { MODELGATE_BASE_URL: gateway.url } });
    expect(noAdmin.code).not.toBe(0);
    expect(noAdmin.stderr).toMatch(/admin key/i);
  });
});

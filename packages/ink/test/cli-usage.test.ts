// `modelgate usage` against the test gateway: the figures the chat responses reported, per key.
import { randomUUID } from 'node:crypto';
import { createClient } from '@modelgate/core';
import { zUsageReport } from '@modelgate/core/zod';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });

/** A fresh key and what its chats reported: the usage report of that key must say the same. */
interface Spender {
  id: number;
  key: string;
  env: Record<string, string>;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

async function spender(models: string[]): Promise<Spender> {
  const token = await admin.tokens.create({ name: `cli-usage-${randomUUID()}`, quota: 10_000_000 });
  const client = createClient({ baseUrl: gateway.url, apiKey: token.key });
  const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: token.key };
  const spent = { id: token.id, key: token.key, env, requests: 0, inputTokens: 0, outputTokens: 0 };
  for (const model of models) {
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: `Count to ${spent.requests + 3}` }],
    });
    spent.requests += 1;
    spent.inputTokens += completion.usage?.prompt_tokens ?? 0;
    spent.outputTokens += completion.usage?.completion_tokens ?? 0;
  }
  return spent;
}

let mine: Spender;
let theirs: Spender;
beforeAll(async () => {
  [mine, theirs] = await Promise.all([
    spender(['gpt-4o-mini', 'claude-haiku-4-5']),
    spender(['gpt-4o-mini']),
  ]);
});

describe('modelgate usage', () => {
  it('totals the requests and tokens the chat responses reported', async () => {
    expect(mine.inputTokens).toBeGreaterThan(0);
    const json = await runCli(['usage', '--json'], { env: mine.env });
    expect(json.code).toBe(0);
    const report = zUsageReport.parse(JSON.parse(json.stdout));
    expect(report.totals).toMatchObject({
      requests: mine.requests,
      input_tokens: mine.inputTokens,
      output_tokens: mine.outputTokens,
    });
    // Seven days by default, every bucket in the JSON, the empty ones too.
    expect(report).toMatchObject({ bucket_width: '1d', group_by: [] });
    expect(report.data).toHaveLength(7);

    const text = await runCli(['usage'], { env: mine.env });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    const figures = `2 requests  ${mine.inputTokens} tokens in  ${mine.outputTokens} tokens out  ${report.totals.cost} credits`;
    // The empty buckets are left out of the table: today's line, then the total.
    expect(text.stdout).toBe(`${today()}  ${figures}\ntotal  ${figures}\n`);
  });

  it('--by model: a line per model, naming it', async () => {
    const result = await runCli(['usage', '--by', 'model'], { env: mine.env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${today()} {2}claude-haiku-4-5 {2}1 request {2}`));
    expect(lines[1]).toMatch(new RegExp(`^${today()} {2}gpt-4o-mini {2}1 request {2}`));
    expect(lines[2]).toMatch(/^total {2}2 requests {2}/);
  });

  it('--csv: a row per bucket and model, the same figures as the JSON', async () => {
    const result = await runCli(['usage', '--by', 'model', '--csv'], { env: mine.env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    const columns = header?.split(',') ?? [];
    expect(columns.slice(0, 7)).toEqual([
      'bucket_start',
      'bucket_end',
      'key_id',
      'model',
      'kind',
      'team_id',
      'requests',
    ]);
    const cell = (row: string, name: string) => row.split(',')[columns.indexOf(name)];
    expect(rows.map((row) => cell(row, 'model')).sort()).toEqual([
      'claude-haiku-4-5',
      'gpt-4o-mini',
    ]);
    const sum = (name: string) => rows.reduce((total, row) => total + Number(cell(row, name)), 0);
    expect(sum('requests')).toBe(mine.requests);
    expect(sum('input_tokens')).toBe(mine.inputTokens);
    expect(sum('output_tokens')).toBe(mine.outputTokens);
    expect(cell(rows[0] ?? '', 'bucket_start')).toBe(`${today()}T00:00:00.000Z`);
  });

  it('a normal key sees its own usage only; the admin key sees every key', async () => {
    const own = await runCli(['usage', '--by', 'key', '--json'], { env: mine.env });
    const report = zUsageReport.parse(JSON.parse(own.stdout));
    const keyIds = report.data.flatMap((bucket) => bucket.results.map((r) => r.key_id));
    expect(new Set(keyIds)).toEqual(new Set([mine.id]));
    expect(report.totals.requests).toBe(mine.requests);

    const adminEnv = { MODELGATE_BASE_URL: gateway.url, MODELGATE_ADMIN_KEY: gateway.adminKey };
    const all = await runCli(['usage', '--by', 'key'], { env: adminEnv });
    expect(all.stdout).toMatch(new RegExp(`^\\S+ {2}key ${mine.id} {2}2 requests {2}`, 'm'));
    expect(all.stdout).toMatch(new RegExp(`^\\S+ {2}key ${theirs.id} {2}1 request {2}`, 'm'));
    // Split by team, a day's lines add up to its total; these keys are in none, so a "no team"
    // line is there (other files' keys, on the same gateway, may be in teams).
    const byTeam = await runCli(['usage', '--by', 'team', '--days', '1'], { env: adminEnv });
    const count = (text: string) => Number(text.replaceAll(',', ''));
    const lines = [
      ...byTeam.stdout.matchAll(/^\S+ {2}(no team|team \d+) {2}([\d,]+) requests? {2}/gm),
    ];
    const total = byTeam.stdout.match(/^total {2}([\d,]+) requests? {2}/m)?.[1] ?? '';
    expect(lines.map((line) => line[1])).toContain('no team');
    expect(lines.reduce((sum, line) => sum + count(line[2] ?? ''), 0)).toBe(count(total));
    const one = await runCli(['usage', '--key', String(theirs.id), '--json'], { env: adminEnv });
    expect(JSON.parse(one.stdout).totals).toMatchObject({
      requests: 1,
      input_tokens: theirs.inputTokens,
      output_tokens: theirs.outputTokens,
    });
  });

  it('--hours N: N hourly buckets, the current one last; --model filters', async () => {
    const result = await runCli(
      ['usage', '--hours', '3', '--model', 'claude-haiku-4-5', '--json'],
      {
        env: mine.env,
      },
    );
    const report = zUsageReport.parse(JSON.parse(result.stdout));
    expect(report.bucket_width).toBe('1h');
    expect(report.data).toHaveLength(3);
    const now = Date.now() / 1000;
    expect(report.data[2]?.start_time).toBeLessThanOrEqual(now);
    expect(report.data[2]?.end_time).toBeGreaterThan(now);
    expect(report.totals.requests).toBe(1);
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    for (const args of [
      ['--days', 'abc'],
      ['--hours', '0'],
      ['--days', '2', '--hours', '3'],
      ['--by', 'model,colour'],
      ['--key', 'me'],
      ['extra'],
    ]) {
      const result = await runCli(['usage', ...args], { env: mine.env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^modelgate: [^\n]+\n\nUsage: modelgate/);
    }
    const days = await runCli(['usage', '--days', 'abc'], { env: mine.env });
    expect(days.stderr).toContain('--days must be a positive whole number');
  });
});

/** Today's UTC date, as the daily table names its bucket. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

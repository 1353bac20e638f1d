/**
 * Claude Code (`@anthropic-ai/claude-code`), unchanged, running `claude -p` against a gateway
 * started as `pnpm start` starts it (demo mode: the simulator answers), on a Claude-style model
 * (native Messages) and a GPT-style one (translated to chat). Its home and config directory are
 * temporary; telemetry, error reporting, updates and other non-essential traffic are off, so it
 * talks only to the test's gateway. It runs with its default tools; the prompt makes it call one
 * (Read) before it answers.
 *
 * Checked: every request it sent was answered 2xx (the gateway's access log); its result is the
 * simulator's answer; and the cost: the key's charge for the session (its usage records) equals
 * (a) the usage the gateway recorded priced independently here at the published prices, and
 * (b) the usage Claude Code itself reports (`modelUsage`) at the same prices, token for token.
 *
 * The package's postinstall (which copies its native binary over `bin/claude.exe`) does not run
 * under this workspace's no-build-scripts policy, so the test starts its documented fallback
 * launcher, `cli-wrapper.cjs`, which runs the same platform binary.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';

const CLAUDE = join(
  dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json')),
  'cli-wrapper.cjs',
);

/**
 * Credits per million tokens. Demo mode prices every model at 1 (input) and 4 (output); cache
 * prices are the provider's published multiples of the input price: Anthropic reads 0.1 ×, 5-minute
 * writes 1.25 ×, 1-hour writes 2 ×; OpenAI's gpt-4o-mini cached input $0.075 of $0.15 = 0.5 ×, no
 * write charge.
 */
interface Price {
  input: number;
  output: number;
  read: number;
  write5m: number;
  write1h: number;
}
const CLAUDE_PRICE: Price = { input: 1, output: 4, read: 0.1, write5m: 1.25, write1h: 2 };
const PRICES: Record<string, Price> = {
  'claude-sonnet-4-5': CLAUDE_PRICE,
  'claude-haiku-4-5': CLAUDE_PRICE,
  'gpt-4o-mini': { input: 1, output: 4, read: 0.5, write5m: 1, write1h: 1 },
};

interface Tokens {
  input: number;
  output: number;
  read: number;
  write5m: number;
  write1h: number;
}
const NO_TOKENS: Tokens = { input: 0, output: 0, read: 0, write5m: 0, write1h: 0 };
const add = (a: Tokens, b: Tokens): Tokens => ({
  input: a.input + b.input,
  output: a.output + b.output,
  read: a.read + b.read,
  write5m: a.write5m + b.write5m,
  write1h: a.write1h + b.write1h,
});
/** Units (1e-6 credit): tokens × credits per million. */
const cost = (t: Tokens, p: Price) =>
  t.input * p.input +
  t.output * p.output +
  t.read * p.read +
  t.write5m * p.write5m +
  t.write1h * p.write1h;

interface UsageRecord {
  model: string;
  units: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_5m_tokens: number;
  cache_write_1h_tokens: number;
  request_id: string;
}

/** Claude Code's `--output-format json` result (the fields this test reads). */
interface ClaudeResult {
  type: string;
  is_error: boolean;
  result: string;
  num_turns: number;
  modelUsage: Record<
    string,
    {
      inputTokens: number;
      outputTokens: number;
      cacheReadInputTokens: number;
      cacheCreationInputTokens: number;
    }
  >;
}

function claude(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [CLAUDE, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** The gateway's access-log lines (method, path, status) since `from`. */
function accessLog(gw: StartedGateway): { method: string; path: string; status: number }[] {
  return gw.output
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { method?: string; path?: string; status?: number };
        return typeof entry.path === 'string' && typeof entry.status === 'number'
          ? [{ method: entry.method ?? '', path: entry.path, status: entry.status }]
          : [];
      } catch {
        return [];
      }
    });
}

async function usageRecords(gw: StartedGateway, key: string): Promise<UsageRecord[]> {
  const records: UsageRecord[] = [];
  let after: string | null = null;
  do {
    const query: string = after ? `?limit=100&after=${after}` : '?limit=100';
    const res = await fetch(`${gw.url}/v1/usage/records${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      data: UsageRecord[];
      next_cursor: string | null;
      has_more: boolean;
    };
    records.push(...page.data);
    after = page.has_more ? page.next_cursor : null;
  } while (after);
  return records;
}

const CASES = [
  // Its background calls (titles, summaries) go to the "Haiku" model: the same style as the main one.
  { model: 'claude-sonnet-4-5', small: 'claude-haiku-4-5' },
  { model: 'gpt-4o-mini', small: 'gpt-4o-mini' },
];

describe('Claude Code claude -p', () => {
  let gw: StartedGateway;
  const dirs: string[] = [];
  beforeAll(async () => {
    gw = await startGateway({ LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await gw?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.each(CASES)(
    'uses a tool and answers on $model; the charge is the reported usage at published prices',
    async ({ model, small }) => {
      const { key } = await gw.createKey({ name: `claude-code-${model}` });
      const home = await mkdtemp(join(tmpdir(), 'mg-claude-home-'));
      const work = await mkdtemp(join(tmpdir(), 'mg-claude-work-'));
      dirs.push(home, work);
      await mkdir(join(home, '.claude'), { recursive: true });
      await writeFile(join(work, 'notes.txt'), 'The river is called Modelgate.\n');
      const before = accessLog(gw).length;
      const run = await claude(
        [
          '-p',
          'Use the Read tool to read notes.txt, then tell me the name of the river.',
          '--output-format',
          'json',
          '--model',
          model,
        ],
        {
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          ANTHROPIC_BASE_URL: gw.url,
          ANTHROPIC_API_KEY: key,
          ANTHROPIC_SMALL_FAST_MODEL: small,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: small,
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          NO_COLOR: '1',
        },
        work,
      );
      const transcript = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      const sent = accessLog(gw)
        .slice(before)
        .filter((l) => l.path !== '/v1/token');
      expect(sent.length, transcript).toBeGreaterThanOrEqual(2);
      expect(
        sent.filter((l) => l.status < 200 || l.status >= 300),
        `${JSON.stringify(sent)}\n${transcript}`,
      ).toEqual([]);
      expect(run.code, transcript).toBe(0);
      const result = JSON.parse(run.stdout) as ClaudeResult;
      expect(result.is_error, transcript).toBe(false);
      // A tool turn, then the answer: the simulator's words, not empty.
      expect(result.num_turns, transcript).toBeGreaterThanOrEqual(2);
      expect(result.result.trim().length, transcript).toBeGreaterThan(0);

      const records = await usageRecords(gw, key);
      expect(records.length, transcript).toBeGreaterThanOrEqual(2);
      const charged = records.reduce((sum, r) => sum + r.units, 0);
      // (a) Each recorded request at the published prices, rounded up as the gateway bills.
      let recorded = 0;
      const recordedTokens: Record<string, Tokens> = {};
      for (const r of records) {
        const tokens: Tokens = {
          input: r.input_tokens,
          output: r.output_tokens,
          read: r.cache_read_tokens,
          write5m: r.cache_write_5m_tokens,
          write1h: r.cache_write_1h_tokens,
        };
        recorded += Math.ceil(cost(tokens, PRICES[r.model]!));
        recordedTokens[r.model] = add(recordedTokens[r.model] ?? NO_TOKENS, tokens);
      }
      expect(charged).toBe(recorded);
      // The session used the prompt cache: Claude Code marks its prompt with cache_control.
      const cacheRead = Object.values(recordedTokens).reduce((sum, t) => sum + t.read, 0);
      expect(cacheRead, JSON.stringify(recordedTokens)).toBeGreaterThan(0);

      // (b) What Claude Code reports, per model, token for token, and its cost at the same prices
      // (its cache writes are 5-minute ones: it asks for no 1-hour lifetime).
      let reported = 0;
      for (const [name, u] of Object.entries(result.modelUsage)) {
        const tokens: Tokens = {
          input: u.inputTokens,
          output: u.outputTokens,
          read: u.cacheReadInputTokens,
          write5m: u.cacheCreationInputTokens,
          write1h: 0,
        };
        expect(recordedTokens[name], `${name}: ${JSON.stringify(recordedTokens)}`).toEqual(tokens);
        reported += cost(tokens, PRICES[name]!);
      }
      expect(Object.keys(recordedTokens).sort()).toEqual(Object.keys(result.modelUsage).sort());
      console.info(
        `${model}: ${records.length} requests, charged ${charged} units; reported usage at published prices ${reported.toFixed(2)} units; tokens ${JSON.stringify(recordedTokens)}`,
      );
      // The gateway rounds each request up to a whole unit: at most one unit per request apart.
      expect(charged).toBeGreaterThanOrEqual(reported);
      expect(charged - reported).toBeLessThan(records.length);
    },
  );
});

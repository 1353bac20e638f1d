// `modelgate embed …` of the built binary against the real gateway: the summary line and the
// vector, --model, --json, stdin, and errors.
import { createClient } from '@modelgate/core';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey };
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });

describe('modelgate embed', () => {
  it('prints the model, the dimensions and the tokens, then the vector', async () => {
    const result = await runCli(['embed', 'a red fox'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [head, vector, ...rest] = result.stdout.split('\n');
    expect(rest).toEqual(['']);
    expect(head).toMatch(/^text-embedding-3-small {2}1536 dimensions {2}\d+ tokens$/);
    const values = JSON.parse(vector ?? '') as number[];
    expect(values).toHaveLength(1536);
    expect(Math.hypot(...values)).toBeCloseTo(1, 5);
  });

  it('the same text, the same vector; --model and stdin (-)', async () => {
    const once = await runCli(['embed', '-', '-m', 'gemini-embedding-001'], {
      env,
      stdin: 'a red fox\n',
    });
    const twice = await runCli(['embed', 'a', 'red', 'fox', '--model', 'gemini-embedding-001'], {
      env,
    });
    expect(once.code).toBe(0);
    expect(once.stdout.split('\n')[0]).toMatch(/^gemini-embedding-001 {2}3072 dimensions/);
    expect(once.stdout).toBe(twice.stdout);
  });

  it('--json prints the gateway’s answer; the key is charged its tokens', async () => {
    const token = await admin.tokens.create({ name: 'embed-json', quota: 10_000_000 });
    const result = await runCli(['embed', 'the quick brown fox', '--json'], {
      env: { ...env, MODELGATE_API_KEY: token.key },
    });
    const answer = JSON.parse(result.stdout) as {
      object: string;
      usage: { prompt_tokens: number };
    };
    expect(answer.object).toBe('list');
    const client = createClient({ baseUrl: gateway.url, apiKey: token.key });
    const { data } = await client.usage.records.list({ kind: 'embedding' });
    expect(data.map((r) => [r.model, r.input_tokens])).toEqual([
      ['text-embedding-3-small', answer.usage.prompt_tokens],
    ]);
  });

  it('errors: no text (exit 2), an unknown model (exit 1)', async () => {
    const none = await runCli(['embed'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: modelgate embed');
    const unknown = await runCli(['embed', 'x', '-m', 'no-such-model'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^modelgate: 404 model_not_found: .*no-such-model.*\n$/);
  });
});

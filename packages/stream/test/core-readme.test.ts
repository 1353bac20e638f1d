// @modelgate/core's README snippets, run here because this package's tests have a real gateway and
// core's cannot (the gateway depends on core, so core may not depend on it, not even for tests).
// Each snippet runs as its own Node process from packages/core, against core's built dist/.
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { readSnippets, runSnippet, unknownPnpmCommands } from '../../../scripts/readme-snippets.js';
import { createKey } from './gateway.js';

const gateway = inject('gateway');
const coreDir = fileURLToPath(new URL('../../core/', import.meta.url));
const snippets = readSnippets(`${coreDir}README.md`, ['ts']);

function run(index: number, apiKey = gateway.apiKey): Promise<string> {
  return runSnippet(coreDir, snippets[index]!, {
    replacements: { 'http://localhost:8080': gateway.url },
    env: { MODELGATE_API_KEY: apiKey, MODELGATE_ADMIN_KEY: gateway.adminKey },
  });
}

const chat = (key: string) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe("core's README snippets", () => {
  it('has the six snippets this test knows', () => {
    expect(snippets).toHaveLength(6);
  });

  it('names only pnpm commands the repository has', () => {
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const shell = readSnippets(`${coreDir}README.md`, ['sh']);
    expect(shell.length).toBeGreaterThan(0);
    for (const snippet of shell) expect(unknownPnpmCommands(snippet, repoRoot)).toEqual([]);
  });

  it('makes a chat completion and prints its usage', async () => {
    const out = await run(0);
    expect(out).toMatch(/prompt_tokens: \d+/);
    expect(out).toMatch(/completion_tokens: \d+/);
  });

  it('prints status, code and param for a refused key', async () => {
    expect((await run(0, 'sk-not-a-real-key')).trim()).toMatch(
      /^401 invalid_api_key null req_\w+$/,
    );
  });

  it('the images snippet prints the stored image’s CDN address and submits a video from it', async () => {
    const [url, status] = (await run(1)).trim().split('\n');
    expect(url).toMatch(new RegExp(`^${gateway.cdnUrl}/files/file-[A-Za-z0-9]+\\.png$`));
    const image = await fetch(url!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(status).toBe('pending');
  });

  it("the operators' snippet prints each key's spend per day and revokes the CI keys", async () => {
    const ci = await createKey(gateway.url, gateway.adminKey, 'ci-pipeline', 1_000_000_000);
    expect((await chat(ci)).status).toBe(200);
    const lines = (await run(2)).trim().split('\n');
    const total = lines.at(-1) ?? '';
    expect(total).toMatch(/^total credits \d+(\.\d+)?(e-\d+)?$/);
    expect(Number(total.split(' ').at(-1))).toBeGreaterThan(0);
    // One line per key and model of each day: "<day start> <key id> gpt-4o-mini <requests> <cost>".
    expect(lines.some((line) => / \d+ gpt-4o-mini [1-9]\d* /.test(line))).toBe(true);
    const after = await chat(ci);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe(
      'revoked_api_key',
    );
  });

  it('the zod snippet compiles and loads against the built package', async () => {
    expect(await run(3)).toBe('');
  });

  it('the SSE snippet prints each event with its exact text', async () => {
    expect((await run(4)).trim().split('\n')).toEqual([
      '"event: ping\\r\\ndata: {}\\r\\n\\r\\n" ping {}',
      '"data: [DONE]\\n\\n" undefined [DONE]',
    ]);
  });

  it('the retry snippet reads Retry-After and sleeps', async () => {
    expect((await run(5)).trim()).toBe('1000');
  });
});

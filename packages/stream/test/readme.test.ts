// Every TypeScript snippet of README.md, run as its own Node process against the built package and
// a real gateway (the README's `http://localhost:8080` is the test gateway's address).
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { readSnippets, runSnippet, unknownPnpmCommands } from '../../../scripts/readme-snippets.js';

const gateway = inject('gateway');
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const snippets = readSnippets(`${packageDir}README.md`, ['ts']);

function run(index: number): Promise<string> {
  return runSnippet(packageDir, snippets[index]!, {
    replacements: { 'http://localhost:8080': gateway.url },
    env: { MODELGATE_API_KEY: gateway.apiKey },
  });
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('README snippets', () => {
  it('names only pnpm commands the repository has', () => {
    const shell = readSnippets(`${packageDir}README.md`, ['sh']);
    expect(shell.length).toBeGreaterThan(0);
    for (const snippet of shell) expect(unknownPnpmCommands(snippet, repoRoot)).toEqual([]);
  });

  it('has the snippets this test knows', () => {
    expect(
      snippets.map((s) => s.code.match(/(ChatSession|waitForVideoTask|streamMessage)\(/)?.[1]),
    ).toEqual(['streamMessage', 'ChatSession', 'ChatSession', 'waitForVideoTask']);
  });

  it('streams a chat completion and a message', async () => {
    const out = await run(0);
    expect(out).toMatch(/prompt_tokens: \d+/);
    expect(out).toMatch(/type: 'text'/);
    expect(out).toMatch(/output_tokens: \d+/);
  });

  it('runs a chat session with usage and cost', async () => {
    const out = await run(1);
    expect(out).toMatch(/^\.+\n/); // the subscriber saw the answer grow
    expect(out).toMatch(/\d+ tokens, [\d.e-]+ credits/);
  });

  it('runs a chat session on the Responses API, chaining the answers', async () => {
    const lines = (await run(2)).trim().split('\n');
    expect(lines[0]).toMatch(/^stored as resp_/);
    expect(lines[1]).toMatch(/^stored as resp_/);
    expect(lines[1]).not.toBe(lines[0]);
    expect(lines.at(-1)).toMatch(/ \d+ tokens$/);
  });

  it('waits for a video task, reporting progress', async () => {
    const lines = (await run(3)).trim().split('\n');
    expect(lines.at(-1)).toMatch(new RegExp(`^completed ${gateway.cdnUrl}/videos/`));
    expect(lines.length).toBeGreaterThan(1);
  });
});

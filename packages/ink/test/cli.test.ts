// The one-shot commands of the built binary against a real gateway: plain output, exit codes.
import { createClient } from '@modelgate/core';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';

const gateway = inject('gateway');
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey };
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });

async function expectedAnswer(model: string, prompt: string): Promise<string> {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]?.message.content ?? '';
}

describe('modelgate chat', () => {
  it('streams the answer to a pipe as plain text, nothing else', async () => {
    const prompt = 'Describe a lighthouse';
    const expected = await expectedAnswer('gpt-4.1-mini', prompt);
    const result = await runCli(['chat', prompt, '--model', 'gpt-4.1-mini'], { env });
    expect(result).toEqual({ code: 0, stdout: `${expected}\n`, stderr: '' });
  });

  it('reads the prompt from stdin with -, flags override the environment', async () => {
    const prompt = 'A prompt from a pipe';
    const expected = await expectedAnswer('gpt-4o-mini', prompt);
    const result = await runCli(
      ['chat', '-', '--base-url', gateway.url, '--api-key', gateway.userKey],
      {
        env: { MODELGATE_BASE_URL: 'http://127.0.0.1:9', MODELGATE_API_KEY: 'sk-wrong' },
        stdin: `${prompt}\n`,
      },
    );
    expect(result).toEqual({ code: 0, stdout: `${expected}\n`, stderr: '' });
  });

  it('--api responses streams the answer from /v1/responses', async () => {
    const prompt = 'Describe a harbour';
    const reference = await client.responses.create({
      model: 'claude-haiku-4-5',
      input: prompt,
      store: false,
    });
    const result = await runCli(['chat', prompt, '-m', 'claude-haiku-4-5', '--api', 'responses'], {
      env,
    });
    expect(result).toEqual({ code: 0, stdout: `${reference.output_text}\n`, stderr: '' });
  });

  it('--api responses --json prints the response object; an unknown --api exits 2', async () => {
    const result = await runCli(['chat', 'Hi there', '--api', 'responses', '--json'], { env });
    expect(result.code).toBe(0);
    const response = JSON.parse(result.stdout) as { object: string; status: string; id: string };
    expect(response).toMatchObject({ object: 'response', status: 'completed' });
    expect(response.id).toMatch(/^resp_/);
    const messages = await runCli(['chat', 'Hi there', '--api', 'messages', '--json'], { env });
    expect(JSON.parse(messages.stdout)).toMatchObject({ type: 'message', role: 'assistant' });
    const unknown = await runCli(['chat', 'hi', '--api', 'assistants'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--api must be one of chat, messages, responses');
  });

  it('exits 1 with the error on stderr for a bad key', async () => {
    const result = await runCli(['chat', 'hi'], { env: { ...env, MODELGATE_API_KEY: 'sk-bad' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('modelgate: 401 invalid_api_key: Invalid API key.\n');
  });

  it('exits 2 with the usage for an unknown command or flag', async () => {
    const unknown = await runCli(['chta', 'hi'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "chta"');
    expect(unknown.stderr).toContain('Usage: modelgate');
    const flag = await runCli(['models', '--frobnicate'], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--frobnicate'");
  });
});

describe('modelgate models / balance', () => {
  it('lists the models, text first', async () => {
    const result = await runCli(['models'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const { data } = await client.models.list();
    expect(lines).toHaveLength(data.length);
    expect(lines[0]).toMatch(/^\S+\s+text\s+\S+$/);
    expect(lines.at(-1)).toMatch(/^\S+\s+video\s+\S+$/);
    expect(result.stdout).toMatch(/^gpt-4o-mini\s+text\s+openai$/m);
    // Image models between the two groups.
    const types = lines.map((line) => line.split(/\s+/)[1]);
    expect(types.lastIndexOf('text')).toBeLessThan(types.indexOf('image'));
    expect(types.lastIndexOf('image')).toBeLessThan(types.indexOf('video'));
    // Embedding models after the text ones, with their vectors' length.
    expect(result.stdout).toMatch(
      /^text-embedding-3-small\s+embedding\s+openai\s+1536 dimensions$/m,
    );
    // An image model's sizes follow it, in the gateway's order: what --size takes.
    expect(result.stdout).toMatch(/^dall-e-3\s+image\s+openai\s+1024x1024 1792x1024 1024x1792$/m);
    for (const model of data.filter((m) => m.type === 'image')) {
      const line = lines.find((l) => l.startsWith(`${model.id} `));
      expect(line?.split(/ {2,}/).at(-1)).toBe(model.image?.sizes.join(' '));
    }
  });

  it('prints the balance, and JSON with --json', async () => {
    const text = await runCli(['balance'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^[\d.,]+ credits left \(100 granted, [\d.]+ used\)\n$/);
    const json = await runCli(['balance', '--json'], { env });
    const summary = JSON.parse(json.stdout) as { object: string; total_granted: number };
    expect(summary).toMatchObject({ object: 'credit_summary', total_granted: 100 });
  });

  it('prints --version and --help', async () => {
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('chat <prompt|->');
    expect(help.stdout).toContain('[--api chat|messages|responses]');
    expect(help.stdout).toContain('image <prompt> [--model M] [--size S] [--quality Q] [--n N]');
  });
});

// `modelgate image …` of the built binary against the real gateway: URLs, --out, --n, errors.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@modelgate/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './cli-bin.js';
import { writePicture } from './images.js';

const gateway = inject('gateway');
const env = { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: gateway.userKey };
const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });
const dir = mkdtempSync(join(tmpdir(), 'modelgate-ink-image-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CDN_FILE_URL = /^https?:\/\/\S+\/files\/file-\w+\.\w+$/;

/** The bytes the CDN serves at `url`, after checking it serves an image. */
async function fetchImage(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\//);
  return Buffer.from(await response.arrayBuffer());
}

/** A key of the test's own, so that no other test file's spending shows in its balance. */
async function ownKey(name: string, models?: string[]) {
  const token = await admin.tokens.create({ name, quota: 10_000_000, models: models ?? null });
  return {
    env: { MODELGATE_BASE_URL: gateway.url, MODELGATE_API_KEY: token.key },
    client: createClient({ baseUrl: gateway.url, apiKey: token.key }),
  };
}

describe('modelgate image', () => {
  it('prints the URL of a stored image, which the CDN serves as an image', async () => {
    const result = await runCli(['image', 'a lighthouse at dusk'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(CDN_FILE_URL);
    await fetchImage(lines[0] ?? '');
  });

  it('--out saves the image as a PNG, the same bytes the CDN serves', async () => {
    const out = join(dir, 'boat.png');
    const result = await runCli(['image', 'a paper boat', '--out', out], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const saved = readFileSync(out);
    expect(saved.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(saved.length).toBeGreaterThan(100);
    expect(saved).toEqual(await fetchImage(result.stdout.trim()));
  });

  it('--n 2 prints two URLs and saves name-1 and name-2', async () => {
    const out = join(dir, 'pair.png');
    const result = await runCli(['image', 'two kites', '--n', '2', '--out', out], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const urls = result.stdout.trimEnd().split('\n');
    expect(urls).toHaveLength(2);
    expect(new Set(urls).size).toBe(2);
    for (const [index, url] of urls.entries()) {
      expect(url).toMatch(CDN_FILE_URL);
      const saved = readFileSync(join(dir, `pair-${index + 1}.png`));
      expect(saved).toEqual(await fetchImage(url));
    }
    expect(existsSync(out)).toBe(false);
  });

  it('--model, --size and --quality reach the gateway; --json prints its answer', async () => {
    const result = await runCli(
      ['image', 'a red fox', '-m', 'dall-e-3', '--size', '1792x1024', '--quality', 'hd', '--json'],
      { env },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(result.stdout) as {
      data: { url?: string; revised_prompt?: string }[];
    };
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0]?.url).toMatch(CDN_FILE_URL);
    // Only dall-e-3 revises the prompt.
    expect(answer.data[0]?.revised_prompt).toEqual(expect.any(String));
  });

  it('without --model uses the first image model the key may use', async () => {
    const key = await ownKey('image-default-model', ['gpt-4o-mini', 'dall-e-2']);
    const result = await runCli(['image', 'a small cat'], { env: key.env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const { data } = await key.client.usage.records.list({ kind: 'image' });
    expect(data.map((record) => record.model)).toEqual(['dall-e-2']);
  });

  it('refuses to overwrite an existing file before spending anything (exit 2)', async () => {
    const key = await ownKey('image-no-overwrite');
    const before = await key.client.billing.creditGrants();
    const out = join(dir, 'kept.png');
    writeFileSync(out, 'mine');
    const result = await runCli(['image', 'a storm', '--out', out], { env: key.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `modelgate: ${out} already exists; not overwriting it (remove it or choose another --out)\n`,
    );
    expect(readFileSync(out, 'utf8')).toBe('mine');
    // The second of two names existing is refused the same way.
    writeFileSync(join(dir, 'twice-2.png'), 'mine too');
    const twice = await runCli(['image', 'a storm', '--n', '2', '--out', join(dir, 'twice.png')], {
      env: key.env,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('twice-2.png already exists');
    expect(existsSync(join(dir, 'twice-1.png'))).toBe(false);
    expect((await key.client.billing.creditGrants()).total_used).toBe(before.total_used);
  });

  it('an unknown model is the gateway error with its code (exit 1)', async () => {
    const result = await runCli(['image', 'anything', '--model', 'no-such-model'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^modelgate: 404 model_not_found: .*no-such-model.*\n$/);
  });

  it('a key without credit gets the gateway 402 and nothing is saved (exit 1)', async () => {
    const broke = await admin.tokens.create({ name: 'image-broke-cli', quota: 0 });
    const out = join(dir, 'unpaid.png');
    const result = await runCli(['image', 'a castle', '--out', out], {
      env: { ...env, MODELGATE_API_KEY: broke.key },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^modelgate: 402 \w+: .+\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('a value the model does not take is the gateway 400 (exit 1)', async () => {
    const result = await runCli(['image', 'a fox', '-m', 'dall-e-3', '--n', '2'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^modelgate: 400 unsupported_value: dall-e-3 .*\n$/);
  });

  it.each([
    [['image', 'a fox', '--n', '0'], '--n must be a positive whole number'],
    [['image', 'a fox', '--n', 'two'], '--n must be a positive whole number'],
    [['image', 'a fox', '--size', 'huge'], '--size must be one of auto, 256x256'],
    [['image', 'a fox', '--quality', 'best'], '--quality must be one of auto, low'],
    [['image'], 'usage: modelgate image "<prompt>"'],
    [['image', 'a fox', '--n'], "Option '--n <value>' argument missing"],
  ])('bad arguments %j exit 2 with the usage', async (args, message) => {
    const result = await runCli(args, { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: modelgate');
  });

  it('--image FILE edits the file (uploaded first): the answer is a new stored image', async () => {
    const key = await ownKey('image-edit-file');
    const input = writePicture(dir, 'room.png', 64);
    const result = await runCli(['image', 'paint it sage green', '--image', input, '--json'], {
      env: key.env,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(result.stdout) as { data: { url: string }[]; size: string };
    expect(answer.data[0]?.url).toMatch(CDN_FILE_URL);
    expect(answer.size).toBe('1024x1024');
    const edited = await fetchImage(answer.data[0]?.url ?? '');
    expect(edited.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const { data } = await key.client.usage.records.list({ kind: 'image' });
    // The first image model that edits: gpt-image-1.
    expect(data.map((record) => record.model)).toEqual(['gpt-image-1']);
  });

  it('--image URL edits an image already on the gateway (an earlier answer)', async () => {
    const first = await runCli(['image', 'a lighthouse'], { env });
    const url = first.stdout.trim();
    const out = join(dir, 'dusk.png');
    const result = await runCli(['image', 'make it dusk', '--image', url, '--out', out], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const saved = readFileSync(out);
    expect(saved).toEqual(await fetchImage(result.stdout.trim()));
    expect(saved).not.toEqual(await fetchImage(url));
  });

  it('--mask FILE with dall-e-2: both uploaded, the edit charged at dall-e-2’s price', async () => {
    const key = await ownKey('image-edit-mask');
    const image = writePicture(dir, 'square.png', 64, () => [255, 255, 255, 255]);
    const mask = writePicture(dir, 'mask.png', 64, (x) => (x < 32 ? [0, 0, 0, 255] : [0, 0, 0, 0]));
    const result = await runCli(
      ['image', 'a lake', '-m', 'dall-e-2', '--image', image, '--mask', mask, '--size', '256x256'],
      { env: key.env },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toMatch(CDN_FILE_URL);
    const { data } = await key.client.usage.records.list({ kind: 'image' });
    expect(data.map((record) => [record.model, record.cost])).toEqual([['dall-e-2', 0.016]]);
  });

  it('edit refusals: --mask without --image (exit 2), a file that is not an image (exit 1)', async () => {
    const lone = await runCli(['image', 'x', '--mask', 'mask.png'], { env });
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--mask needs --image');
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a picture');
    const text = await runCli(['image', 'x', '--image', notes], { env });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^modelgate: 415 unsupported_file_type: /);
    const missing = await runCli(['image', 'x', '--image', join(dir, 'nowhere.png')], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nowhere.png');
  });
});

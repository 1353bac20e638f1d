// The chat screen's model picker, code blocks, cost per turn, attachments, status line and /image.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@modelgate/core';
import { cleanup, render } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { App } from '../src/ui/App.js';
import { flat, plain, waitForFrame } from './frames.js';
import { writePng } from './images.js';
import { renderInTerminal } from './small-terminal.js';
import { startScriptedStreamServer } from './sse-server.js';

const gateway = inject('gateway');
const config = { baseUrl: gateway.url, apiKey: gateway.userKey, model: 'gpt-4o-mini' };
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });
const dir = mkdtempSync(join(tmpdir(), 'modelgate-ink-app-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => cleanup());

type Screen = { stdin: { write(data: string): void }; lastFrame(): string | undefined };

async function typeLine(app: Screen, line: string) {
  app.stdin.write(line);
  await waitForFrame(app.lastFrame, (frame) => flat(frame).includes(line));
  app.stdin.write('\r');
}

const DOWN = '\u001b[B';

describe('chat screen features', () => {
  it('/model opens a picker of the text models; arrows and Enter switch the model', async () => {
    const { data } = await client.models.list();
    const ids = data
      .filter((m) => m.type === 'text')
      .map((m) => m.id)
      .sort();
    const next = ids[(ids.indexOf('gpt-4o-mini') + 1) % ids.length];
    const app = render(<App config={config} />);
    await typeLine(app, '/model');
    const picker = await waitForFrame(app.lastFrame, (f) => f.includes('Enter to pick'));
    expect(picker).toMatch(/› gpt-4o-mini\s+openai \(current\)/);
    expect(picker).not.toContain('vidu-q2');
    app.stdin.write(DOWN);
    await waitForFrame(app.lastFrame, (f) => new RegExp(`› ${next}\\s`).test(f));
    app.stdin.write('\r');
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes(`model → ${next}`));
    expect(frame).not.toContain('Enter to pick');
    expect(plain(frame).split('\n').at(-1)).toMatch(new RegExp(`^${next} · `));
  });

  it('Esc closes the picker and keeps the model', async () => {
    const app = render(<App config={config} />);
    await typeLine(app, '/model');
    await waitForFrame(app.lastFrame, (f) => f.includes('Enter to pick'));
    app.stdin.write(DOWN);
    app.stdin.write('\u001b');
    const frame = await waitForFrame(app.lastFrame, (f) => !f.includes('Enter to pick'));
    expect(plain(frame).split('\n').at(-1)).toMatch(/^gpt-4o-mini · /);
  });

  it('draws a fenced code block apart from the prose, even with a blank line inside it', async () => {
    const answer = 'Here it is:\n\n```ts\nconst a = 1;\n\nconsole.log(a);\n```\n\nThat is all.';
    const server = await startScriptedStreamServer(answer);
    try {
      const app = render(<App config={{ ...config, baseUrl: server.url }} batchMs={10} />);
      await typeLine(app, 'show code');
      const frame = await waitForFrame(
        app.lastFrame,
        (f) => f.includes('That is all.') && !f.includes('▍'),
      );
      // The code sits in one box (the blank line inside did not split it), its language on top.
      expect(plain(frame)).toMatch(
        /┌─+┐\n│ ts\s+│\n│ const a = 1;\s+│\n│\s+│\n│ console\.log\(a\);\s+│\n└─+┘/,
      );
      expect(plain(frame)).not.toContain('```');
    } finally {
      await server.close();
    }
  });

  it('prints what each turn cost: its tokens and the credits used', async () => {
    const app = render(<App config={config} />);
    await waitForFrame(app.lastFrame, (f) => /[\d.]+ credits/.test(f));
    await typeLine(app, 'What does this cost');
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('↳'));
    const match = plain(frame).match(/↳ ([\d,]+) tokens · ([\d.]+) credits/);
    expect(Number(match?.[1])).toBeGreaterThan(0);
    expect(Number(match?.[2])).toBeGreaterThan(0);
  });

  it('/attach uploads an image and sends it with the next prompt; a refusal is shown cleanly', async () => {
    const image = writePng(dir, 'photo.png', 5_000);
    const app = render(<App config={config} />);
    await typeLine(app, `/attach ${image}`);
    const attached = await waitForFrame(app.lastFrame, (f) => f.includes('attached photo.png'));
    expect(flat(attached)).toMatch(
      /attached photo\.png \(5,000 bytes\) https?:\/\/\S+\/files\/file-\w+\.png/,
    );
    expect(attached).toContain('1 image(s) attached');
    await typeLine(app, 'What is in this picture');
    const frame = await waitForFrame(
      app.lastFrame,
      (f) => f.includes('✗ Error') || f.includes('↳'),
    );
    expect(frame).toContain('› What is in this picture [+1 image]');
    // Until the gateway takes image parts it refuses them with its own error, never a stack trace.
    if (frame.includes('✗ Error')) expect(frame).toMatch(/✗ Error 400 \w+: \S/);
    expect(frame).not.toMatch(/\n\s+at /);
    expect(frame).toContain('Enter to send');
  });

  it('/attach of a missing file is an error line', async () => {
    const app = render(<App config={config} />);
    await typeLine(app, `/attach ${join(dir, 'nope.png')}`);
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('✗ Error'));
    expect(frame).toContain('ENOENT');
  });

  it('the status line fits 80 columns; the admin key shows unlimited credits', async () => {
    const app = renderInTerminal(
      <App config={{ ...config, apiKey: gateway.adminKey, model: 'claude-sonnet-4-5' }} />,
      80,
      24,
    );
    try {
      const frame = await waitForFrame(app.lastFrame, (f) => f.includes('unlimited'));
      const status = plain(frame).trimEnd().split('\n').at(-1) ?? '';
      expect(status.length).toBeLessThanOrEqual(80);
      expect(status).toMatch(/^claude-sonnet-4-5 · .*unlimited/);
      expect(status).not.toContain('0 credits');
    } finally {
      app.unmount();
    }
  });
});

describe('/image', () => {
  it('generates one image with the first image model and prints its URL; /help lists it', async () => {
    const { data } = await client.models.list();
    const first = data.find((m) => m.type === 'image')?.id;
    const app = render(<App config={config} />);
    await typeLine(app, '/help');
    await waitForFrame(app.lastFrame, (f) => f.includes('/image <prompt>'));
    await typeLine(app, '/image a lighthouse at dusk');
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('✓ image'));
    const match = flat(frame).match(/image: a lighthouse at dusk ✓ image (\S+) (\S+)/);
    expect(match?.[1]).toBe(first);
    const url = match?.[2] ?? '';
    expect(url).toMatch(/^https?:\/\/\S+\/files\/file-\w+\.\w+$/);
    const image = await fetch(url);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect(frame).toContain('Enter to send');
  });

  it('shows why no image came: no prompt, a key without credit, a key without image models', async () => {
    const admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });
    const broke = await admin.tokens.create({ name: 'image-broke', quota: 0 });
    const textOnly = await admin.tokens.create({
      name: 'image-text-only',
      quota: 1_000_000,
      models: ['gpt-4o-mini'],
    });
    const app = render(<App config={config} />);
    await typeLine(app, '/image');
    await waitForFrame(app.lastFrame, (f) => f.includes('✗ Error invalid_command: usage: /image'));

    const poor = render(<App config={{ ...config, apiKey: broke.key }} />);
    await typeLine(poor, '/image a castle');
    const refused = await waitForFrame(poor.lastFrame, (f) => f.includes('✗ Error'));
    expect(refused).toMatch(/✗ Error 402 \w+: \S/);

    const limited = render(<App config={{ ...config, apiKey: textOnly.key }} />);
    await typeLine(limited, '/image a castle');
    const none = await waitForFrame(limited.lastFrame, (f) => f.includes('✗ Error'));
    expect(flat(none)).toContain('✗ Error no_image_model_error: The gateway lists no image model');
    expect(none).not.toMatch(/\n\s+at /);
  });
});

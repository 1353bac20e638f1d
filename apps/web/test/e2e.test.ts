// End to end in a real browser: build the demo, serve it with Vite's preview server (which proxies
// /v1 to the gateway, as the gateway sends no CORS headers), start a real gateway in demo mode, and
// drive Debian's Chromium through playwright-core: a streamed chat answer, then a finished video.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Gateway, startGateway } from '@modelgate/gateway';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    [
      '',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      `!! apps/web browser test SKIPPED: no Chromium at ${CHROMIUM}.`,
      '!! Install it with:  apt-get update && apt-get install -y chromium',
      '!! (or point CHROMIUM_PATH at a Chromium/Chrome binary).',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '',
    ].join('\n'),
  );
}

const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHAT_SHOT = '/tmp/modelgate-web-chat.png';
const VIDEO_SHOT = '/tmp/modelgate-web-video.png';
const PROGRESS_SHOT = '/tmp/modelgate-web-video-progress.png';

describe.skipIf(!hasChromium)('the web demo in Chromium', () => {
  const adminKey = `sk-${randomBytes(48).toString('base64url').replace(/[-_]/g, '0').slice(0, 48)}`;
  let workDir: string;
  let outDir: string;
  let gateway: Gateway;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  let apiKey: string;
  let appUrl: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'mg-web-'));
    outDir = join(workDir, 'dist');
    gateway = await startGateway({
      env: { LOG_LEVEL: 'warn', MODELGATE_VIDEO_POLL_INTERVAL_MS: '200' },
      config: {
        host: '127.0.0.1',
        port: 0,
        cdnPort: 0,
        pgliteDir: 'memory://',
        dataDir: join(workDir, 'data'),
        adminKey,
        drainTimeoutMs: 1_000,
      },
      // Paced tokens so the answer visibly streams; a video that takes a couple of polls.
      simulator: { tokensPerSecond: 20, video: { processingMs: 2_000 } },
    });
    const token = await fetch(`${gateway.url}/v1/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'web-e2e', quota: 1_000_000_000 }),
    });
    apiKey = ((await token.json()) as { key: string }).key;

    await build({ root: appRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    // vite.config.ts proxies /v1 to MODELGATE_GATEWAY_URL: the same path `pnpm preview` takes.
    process.env.MODELGATE_GATEWAY_URL = gateway.url;
    server = await preview({
      root: appRoot,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('preview server has no port');
    appUrl = `http://127.0.0.1:${address.port}/`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await gateway?.close(1_000);
    delete process.env.MODELGATE_GATEWAY_URL;
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('connects with a typed API key and lists the models', async () => {
    await page.goto(appUrl);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(/Connected: \d+ text and 9 video models/).waitFor({ timeout: 15_000 });
    // The key is remembered across reloads.
    await page.reload();
    await page.getByText(/Connected:/).waitFor({ timeout: 15_000 });
  });

  it('streams a chat answer into the page', async () => {
    const prompt = 'Tell me about kites';
    await page.getByLabel('Message').fill(prompt);
    await page.getByRole('button', { name: 'Send' }).click();

    // Text is on the page while the Stop button is still shown: it arrives piece by piece.
    const assistant = page.locator('[data-role=assistant] p').last();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-role=assistant] p')?.textContent ?? '')
          .replace('▍', '')
          .trim().length > 0,
      undefined,
      { timeout: 15_000, polling: 20 },
    );
    const partial = (await assistant.textContent())?.replace('▍', '') ?? '';
    const stillStreaming = await page.getByRole('button', { name: 'Stop' }).isVisible();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 15_000 });
    const final = (await assistant.textContent()) ?? '';

    // The simulator answers deterministically: compare with the same prompt, not streamed.
    const reference = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] }),
    });
    const expected = ((await reference.json()) as { choices: { message: { content: string } }[] })
      .choices[0]!.message.content;
    expect(final).toBe(expected);
    expect(stillStreaming).toBe(true);
    expect(partial.length).toBeLessThan(expected.length);
    expect(expected.startsWith(partial)).toBe(true);
    await page.screenshot({ path: CHAT_SHOT, fullPage: true });
  });

  it('shows a gateway error with its status and code', async () => {
    // An unknown key: the page shows the 401 and its code instead of failing silently.
    await page.evaluate(() => localStorage.clear());
    await page.getByLabel('API key').fill('sk-not-a-real-key');
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.getByRole('alert').first();
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('401');
    expect(await alert.textContent()).toContain('invalid_api_key');
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(/Connected:/).waitFor({ timeout: 15_000 });
  });

  it('generates a video and plays the finished file from the CDN', async () => {
    await page.getByLabel('Video model').selectOption('kling-v3');
    await page.getByLabel('Video prompt').fill('A red kite over a grey sea');
    await page.getByRole('button', { name: 'Generate video' }).click();
    await page.locator('[data-testid=video-status]').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: PROGRESS_SHOT, fullPage: true });
    const video = page.getByTestId('video-result');
    await video.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('video-status').getAttribute('data-status')).toBe('completed');
    const src = (await video.getAttribute('src')) ?? '';
    expect(src.startsWith(`${gateway.cdnUrl}/videos/`)).toBe(true);
    // Chromium loads the file: its metadata (duration) comes from the real MP4.
    const duration = await page.waitForFunction(
      () => {
        const el = document.querySelector('video');
        return el && el.readyState >= 1 ? el.duration : null;
      },
      undefined,
      { timeout: 15_000 },
    );
    expect(Math.round((await duration.jsonValue()) as number)).toBe(5);
    await page.screenshot({ path: VIDEO_SHOT, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

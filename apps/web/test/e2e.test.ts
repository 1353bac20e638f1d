// End to end in a real browser: build the demo, serve it with Vite's preview server, start a real
// gateway in demo mode on another port (the page talks to it across origins, through the gateway's
// CORS), and drive Debian's Chromium through playwright-core. Each step leaves a screenshot in
// test-results/ (git-ignored).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createClient,
  type ModelgateClient,
  type ModelgateError,
  type UsageResult,
} from '@modelgate/core';
import { decodePng, type Raster } from '@modelgate/provider-sim';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  startTestGateway,
  type TestGateway,
} from '../../../packages/stream/test/gateway.js';

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
/** Screenshots of every step, kept after the run (git-ignored). */
const SHOTS = join(appRoot, 'test-results');
/** The pictures the page showed (a generated image and its edit), kept beside them. */
const PICTURES = join(SHOTS, 'pictures');

describe.skipIf(!hasChromium)('the web demo in Chromium', () => {
  let workDir: string;
  let gateway: TestGateway;
  let api: ModelgateClient;
  let admin: ModelgateClient;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const shot = (name: string) =>
    page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  /** The simulator answers deterministically: the same prompt, not streamed, is the reference. */
  async function reference(prompt: string): Promise<string> {
    const completion = await api.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
    });
    return completion.choices[0]?.message.content ?? '';
  }

  async function balanceText(): Promise<string> {
    return (await page.getByTestId('balance').textContent()) ?? '';
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'mg-web-'));
    mkdirSync(PICTURES, { recursive: true });
    // Paced tokens so the answer visibly streams (and can be stopped); a video that takes a few polls.
    gateway = await startTestGateway({ tokensPerSecond: 20, videoProcessingMs: 2_000 });
    api = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
    admin = createClient({ baseUrl: gateway.url, apiKey: gateway.adminKey });

    const outDir = join(workDir, 'dist');
    await build({ root: appRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    server = await preview({
      root: appRoot,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });

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
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await gateway?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  function appUrl(): string {
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('preview server has no port');
    return `http://127.0.0.1:${address.port}/`;
  }

  async function connect(apiKey: string) {
    await page.getByLabel('Gateway URL').fill(gateway.url);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Connect' }).click();
  }

  it('connects across origins with a typed key, lists the models and shows the balance', async () => {
    await page.goto(appUrl());
    await connect(gateway.apiKey);
    await page
      .getByText(/Connected: \d+ text, 6 image, 9 video and 4 embedding models/)
      .waitFor({ timeout: 15_000 });
    await page.getByTestId('balance').waitFor({ timeout: 15_000 });
    const summary = await api.billing.creditGrants();
    expect(await balanceText()).toContain(
      summary.total_available.toLocaleString('en-US', { maximumFractionDigits: 6 }),
    );
    // The settings are remembered across reloads.
    await page.reload();
    await page.getByText(/Connected:/).waitFor({ timeout: 15_000 });
    await shot('01-connected');
  });

  it('streams a chat answer into the page, then shows the lower balance', async () => {
    const before = await balanceText();
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

    const expected = await reference(prompt);
    expect(final).toBe(expected);
    expect(stillStreaming).toBe(true);
    expect(partial.length).toBeLessThan(expected.length);
    expect(expected.startsWith(partial)).toBe(true);
    await page.getByTestId('chat-usage').waitFor();
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid=balance]')?.textContent !== old,
      before,
      { timeout: 15_000 },
    );
    await shot('02-chat-streamed');
  });

  it('Stop mid-stream keeps the partial answer, marked stopped', async () => {
    await page.getByRole('button', { name: 'Clear' }).click();
    const prompt = 'Please stop me early';
    await page.getByLabel('Message').fill(prompt);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-role=assistant] p')?.textContent ?? '')
          .replace('▍', '')
          .trim().length > 0,
      undefined,
      { timeout: 15_000, polling: 20 },
    );
    await page.getByRole('button', { name: 'Stop' }).click();
    const stopped = page.locator('[data-role=assistant][data-stopped]');
    await stopped.waitFor({ timeout: 5_000 });
    expect(await stopped.locator('.badge').textContent()).toBe('stopped');
    const kept = (await stopped.locator('p').textContent()) ?? '';
    const expected = await reference(prompt);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(expected.length);
    expect(expected.startsWith(kept)).toBe(true);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await shot('03-chat-stopped');
  });

  it('shows a gateway error with its status and code', async () => {
    await page.evaluate(() => localStorage.clear());
    await connect('sk-not-a-real-key');
    const alert = page.getByRole('alert').first();
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('401');
    expect(await alert.textContent()).toContain('invalid_api_key');
    await shot('04-error-401');
    // The bootstrap admin key has no quota: its balance reads unlimited, not 0 credits.
    await connect(gateway.adminKey);
    await page.getByText(/Connected:/).waitFor({ timeout: 15_000 });
    await page.getByTestId('balance').getByText('unlimited').waitFor({ timeout: 15_000 });
    expect(await balanceText()).toMatch(/^Balance: unlimited \(/);
    await connect(gateway.apiKey);
    await page.getByText(/Connected:/).waitFor({ timeout: 15_000 });
  });

  it('uploads an image and attaches it to a chat message', async () => {
    // Any PNG will do: Chromium's own screenshot of the page.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 320, height: 180 } });
    await page
      .getByLabel('Upload image')
      .setInputFiles({ name: 'frame.png', mimeType: 'image/png', buffer: png });
    const uploaded = page.getByTestId('uploaded-image');
    await uploaded.waitFor({ timeout: 15_000 });
    const src = (await uploaded.locator('img').getAttribute('src')) ?? '';
    expect(src.startsWith(`${gateway.cdnUrl}/files/file-`)).toBe(true);
    // The CDN serves it: the browser decoded it at its real size.
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>('figure img')?.naturalWidth === 320,
    );
    await shot('05-image-uploaded');

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Message').fill('What is in this picture?');
    await page.getByRole('button', { name: 'Attach image' }).click();
    expect(await page.getByLabel('Message').inputValue()).toBe(
      `What is in this picture? Image: ${src}`,
    );
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-role=user] p').last().textContent()).toContain(src);
    const answer = (await page.locator('[data-role=assistant] p').last().textContent()) ?? '';
    expect(answer.length).toBeGreaterThan(0);
    await shot('06-chat-with-image');
  });

  it('makes a video from the uploaded image and plays it from the CDN', async () => {
    // runway-gen4-turbo needs a first frame: it is offered only with the image.
    await page.getByLabel('Video model').selectOption('runway-gen4-turbo');
    await page.getByLabel('Video prompt').fill('The kite takes off');
    await page.getByRole('button', { name: 'Generate video' }).click();
    await page.locator('[data-testid=video-status]').waitFor({ timeout: 15_000 });
    await shot('07-video-in-progress');
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
    await shot('08-video-from-image');
  });

  it('generates an image, shows it from the CDN with its cost, and makes a video from it', async () => {
    const before = await balanceText();
    const price = (await api.models.list()).data.find((m) => m.id === 'dall-e-2')?.image
      ?.price_per_image.standard?.['512x512'];
    expect(price).toBeGreaterThan(0);
    await page.getByLabel('Image model').selectOption('dall-e-2');
    await page.getByLabel('Image size').selectOption('512x512');
    // A refusal is the gateway's error in the error note: dall-e-2 takes 1,000 characters at most.
    await page.getByLabel('Image prompt').fill('x'.repeat(1_001));
    await page.getByRole('button', { name: 'Generate image' }).click();
    const refusal = page.locator('.image-panel').getByRole('alert');
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.textContent()).toMatch(/^400unsupported_value dall-e-2 takes a prompt/);
    expect(await page.getByTestId('image-cost').count()).toBe(0);

    await page.getByLabel('Image prompt').fill('A red kite over a grey sea');
    await page.getByRole('button', { name: 'Generate image' }).click();
    const generated = page.getByTestId('generated-image');
    await generated.waitFor({ timeout: 15_000 });
    expect(await refusal.count()).toBe(0);
    const src = (await generated.locator('img').getAttribute('src')) ?? '';
    expect(src.startsWith(`${gateway.cdnUrl}/files/file-`)).toBe(true);
    // Chromium fetched and decoded it: the size asked for.
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLImageElement>('[data-testid=generated-image] img')
          ?.naturalWidth === 512,
      undefined,
      { timeout: 15_000 },
    );
    // What was charged is the model's price for that size, and the balance is read again.
    expect(await page.getByTestId('image-cost').textContent()).toBe(
      `Charged ${price?.toLocaleString('en-US', { maximumFractionDigits: 6 })} credits for 1 image`,
    );
    await page.waitForFunction(
      (old) => document.querySelector('[data-testid=balance]')?.textContent !== old,
      before,
      { timeout: 15_000 },
    );
    await shot('09-image-generated');

    // Handed to the video panel as its first frame, in place of the uploaded image — ticked even
    // where the uploaded one had been declined.
    const useFrame = page.getByLabel('Use the uploaded image as the first frame');
    await useFrame.uncheck();
    const previousTask = await page.evaluate(
      () => document.querySelector('[data-testid=video-status] code')?.textContent ?? null,
    );
    await page.getByRole('button', { name: 'Use as first frame' }).click();
    await page.getByRole('button', { name: 'First frame ✓' }).waitFor({ timeout: 15_000 });
    const fileId = /\/files\/(file-\w+)\./.exec(src)?.[1] ?? '';
    await page.locator('.video-form code', { hasText: fileId }).waitFor({ timeout: 15_000 });
    expect(await useFrame.isChecked()).toBe(true);
    expect(await page.getByTestId('uploaded-image').locator('img').getAttribute('src')).toBe(src);
    // runway-gen4-turbo refuses a request without a first frame: it completing proves one went.
    await page.getByLabel('Video model').selectOption('runway-gen4-turbo');
    await page.getByLabel('Video prompt').fill('The kite climbs into the wind');
    await page.getByRole('button', { name: 'Generate video' }).click();
    const status = page.getByTestId('video-status');
    // A new task: its id replaces the earlier one's.
    await page.waitForFunction(
      (old) => {
        const id = document.querySelector('[data-testid=video-status] code')?.textContent;
        return id !== undefined && id !== old && id !== '…';
      },
      previousTask,
      { timeout: 15_000 },
    );
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('completed');
    const taskId = (await status.locator('code').textContent()) ?? '';
    const task = await api.video.generations.retrieve(taskId);
    expect(task).toMatchObject({ model: 'runway-gen4-turbo', status: 'completed' });
    await page.getByTestId('video-result').waitFor({ timeout: 15_000 });
    await shot('10-video-from-generated-image');
  });

  it('edits the generated image: the edit keeps its picture, changes it, and costs the model’s price', async () => {
    const source =
      (await page.getByTestId('generated-image').locator('img').getAttribute('src')) ?? '';
    const price = (await api.models.list()).data.find((m) => m.id === 'gpt-image-1')?.image
      ?.price_per_image.medium?.['1024x1024'];
    await page.getByRole('button', { name: 'Edit this image' }).click();
    const editing = page.getByTestId('edit-source');
    await editing.waitFor({ timeout: 15_000 });
    expect(await editing.locator('img').getAttribute('src')).toBe(source);
    // Only the models that edit are offered; dall-e-3 does not.
    const offered = await page.getByLabel('Image model').locator('option').allTextContents();
    expect(offered).toContain('gpt-image-1');
    expect(offered).not.toContain('dall-e-3');
    await page.getByLabel('Image model').selectOption('gpt-image-1');
    await page.getByLabel('Image size').selectOption('auto');
    await page.getByLabel('Image prompt').fill('Add a storm over the sea');
    await page.getByRole('button', { name: 'Edit image' }).click();
    const edited = page.getByTestId('generated-image').locator('img');
    await page.waitForFunction(
      (old) => {
        const img = document.querySelector<HTMLImageElement>('[data-testid=generated-image] img');
        return img !== null && img.src !== old && img.naturalWidth === 1024;
      },
      source,
      { timeout: 15_000 },
    );
    const result = (await edited.getAttribute('src')) ?? '';
    expect(result.startsWith(`${gateway.cdnUrl}/files/file-`)).toBe(true);
    // The simulator draws auto as medium 1024x1024: that price, from the request's usage record.
    expect(await page.getByTestId('image-cost').textContent()).toBe(
      `Charged ${price?.toLocaleString('en-US', { maximumFractionDigits: 6 })} credits for 1 image`,
    );
    // The pictures themselves, kept beside the screenshots: the source and its edit.
    const before = Buffer.from(await (await fetch(source)).arrayBuffer());
    const after = Buffer.from(await (await fetch(result)).arrayBuffer());
    writeFileSync(join(PICTURES, 'generated.png'), before);
    writeFileSync(join(PICTURES, 'edited.png'), after);
    const [a, b] = [decodePng(before)!, decodePng(after)!];
    // The generated picture is a ground with a square in its middle third: still there, changed.
    const at = (r: Raster, fx: number, fy: number) => {
      const i = (Math.floor(fy * r.height) * r.width + Math.floor(fx * r.width)) * 4;
      return [...r.pixels.subarray(i, i + 3)];
    };
    const distance = (p: number[], q: number[]) =>
      Math.max(...p.map((v, i) => Math.abs(v - q[i]!)));
    const [ground, square] = [at(a, 0.1, 0.1), at(a, 0.5, 0.5)];
    const [editedGround, editedSquare] = [at(b, 0.1, 0.1), at(b, 0.5, 0.5)];
    expect(distance(editedGround, ground)).toBeGreaterThan(10);
    expect(distance(editedGround, ground)).toBeLessThan(distance(editedGround, square));
    expect(distance(editedSquare, square)).toBeLessThan(distance(editedSquare, ground));
    await shot('11-image-edited');
    await page.getByRole('button', { name: 'Stop editing' }).click();
    expect(await page.getByRole('button', { name: 'Generate image' }).count()).toBe(1);
  });

  // The operator panel. A key made here spends, is listed, and is revoked.
  const demoName = 'operator-demo';
  let demo: ModelgateClient;
  let demoId: number;

  /** As the page writes credits in its tables: 2 to 6 decimals. */
  const credits = (amount: number) =>
    amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
  const totalsRow = (totals: UsageResult) => [
    String(totals.requests),
    totals.input_tokens.toLocaleString('en-US'),
    totals.output_tokens.toLocaleString('en-US'),
    credits(totals.cost),
  ];
  const totalsCells = () => page.getByTestId('usage-totals').locator('td').allTextContents();
  const keyRow = (id: number) => page.locator(`tr[data-key-id="${id}"]`);
  const keyRows = () => page.getByRole('table', { name: 'Keys' }).locator('tbody tr');
  const chatWith = (client: ModelgateClient) =>
    client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Count this one' }],
    });

  it("with a normal key shows the key's own usage and no key table", async () => {
    const demoKey = await createKey(gateway.url, gateway.adminKey, demoName, 5_000_000);
    demo = createClient({ baseUrl: gateway.url, apiKey: demoKey, maxRetries: 0 });
    await chatWith(demo);
    const own = (await demo.usage.retrieve()).totals;
    expect(own.requests).toBe(1);
    expect(own.cost).toBeGreaterThan(0);

    await connect(demoKey);
    await expect.poll(totalsCells, { timeout: 15_000 }).toEqual(totalsRow(own));
    expect(await page.getByRole('heading', { name: 'Your usage' }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Keys' }).count()).toBe(0);
    expect(await page.getByLabel('Key status').count()).toBe(0);
    // The video task of the earlier test belongs to the earlier key: the panel starts afresh
    // instead of polling it with this one (404 task_not_found).
    expect(await page.getByText('task_not_found').count()).toBe(0);
    // The image panel starts afresh too: the earlier key's images are gone.
    expect(await page.getByTestId('generated-image').count()).toBe(0);
    await shot('12-usage-of-a-normal-key');
  });

  it("with the admin key shows every key's usage, by day or by hour, read again after a chat", async () => {
    await connect(gateway.adminKey);
    await page.getByRole('heading', { name: 'Operator' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('usage-totals').waitFor({ timeout: 15_000 });
    const everyone = (await admin.usage.retrieve()).totals;
    expect(everyone.requests).toBeGreaterThan(1);
    expect(await totalsCells()).toEqual(totalsRow(everyone));

    await chatWith(demo);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const after = (await admin.usage.retrieve()).totals;
    expect(after.requests).toBe(everyone.requests + 1);
    expect(after.cost).toBeGreaterThan(everyone.cost);
    await expect.poll(totalsCells, { timeout: 15_000 }).toEqual(totalsRow(after));
    expect(await page.getByRole('rowheader', { name: 'gpt-4o-mini' }).count()).toBe(1);

    // One bar per day, or per hour; today's (the last) is the one with spend.
    const bars = page.getByTestId('usage-chart').locator('rect.bar');
    expect(await bars.count()).toBe(7);
    expect(Number(await bars.last().getAttribute('height'))).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Last 24 hours' }).click();
    await expect.poll(() => bars.count(), { timeout: 15_000 }).toBe(24);
    expect(Number(await bars.last().getAttribute('height'))).toBeGreaterThan(0);
    await expect.poll(totalsCells).toEqual(totalsRow(after));
    await shot('13-operator-usage-by-hour');
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await expect.poll(() => bars.count(), { timeout: 15_000 }).toBe(7);
  });

  it('lists the keys page by page, with their spend', async () => {
    // More keys than a page of the table (10) holds.
    for (let i = 0; i < 8; i++) {
      await createKey(gateway.url, gateway.adminKey, `operator-extra-${i}`, 1_000_000);
    }
    const all = (await admin.keys.list({ limit: 100 })).data;
    expect(all.length).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Refresh' }).click();
    // The first page read again holds the newest key.
    await keyRow(all[0]!.id).waitFor({ timeout: 15_000 });
    expect(await keyRows().count()).toBe(10);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => keyRows().count(), { timeout: 15_000 }).toBe(all.length);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    const listed = all.find((key) => key.name === demoName)!;
    demoId = listed.id;
    expect(listed.used).toBeGreaterThan(0);
    const cells = await keyRow(demoId).locator('td').allTextContents();
    expect(cells.slice(0, 5)).toEqual([
      demoName,
      `${listed.key_prefix}…`,
      'active',
      `${credits(listed.used / 1_000_000)} / 5.00`,
      credits((listed.remaining ?? 0) / 1_000_000),
    ]);
    await shot('14-operator-keys');
  });

  it('revokes a key after a confirm: its row turns revoked and the key is refused', async () => {
    const row = keyRow(demoId);
    await row.getByRole('button', { name: `Revoke ${demoName}` }).click();
    await row.getByRole('button', { name: `Confirm revoking ${demoName}` }).click();
    await expect
      .poll(() => row.locator('.key-status').textContent(), { timeout: 15_000 })
      .toBe('revoked');
    expect(await page.getByTestId('revoke-result').textContent()).toContain(`Revoked ${demoName}`);
    expect(await row.getByRole('button').count()).toBe(0);
    const refused = await chatWith(demo).then(
      () => undefined,
      (error: ModelgateError) => error,
    );
    expect(refused?.status).toBe(401);
    expect(refused?.code).toBe('revoked_api_key');
    await shot('15-key-revoked');

    // The key the page is using cannot revoke itself: the gateway's 409 is shown.
    const self = (await admin.keys.list({ limit: 100 })).data.find((key) =>
      gateway.adminKey.startsWith(key.key_prefix),
    )!;
    const selfRow = keyRow(self.id);
    await selfRow.getByRole('button', { name: /^Revoke / }).click();
    await selfRow.getByRole('button', { name: /^Confirm revoking / }).click();
    const refusal = page.getByTestId('revoke-result').getByRole('alert');
    await refusal.waitFor({ timeout: 15_000 });
    expect(await refusal.textContent()).toContain('409');
    expect(await refusal.textContent()).toContain('revoking_own_key');
    expect(await selfRow.locator('.key-status').textContent()).toBe('active');
    await shot('16-revoke-own-key-refused');

    // The status filter asks the gateway for the revoked keys only.
    await page.getByLabel('Key status').selectOption('revoked');
    await expect.poll(() => keyRows().count(), { timeout: 15_000 }).toBe(1);
    expect(await row.count()).toBe(1);
    await page.getByLabel('Key status').selectOption('active');
    await expect.poll(() => keyRows().count(), { timeout: 15_000 }).toBe(10);
    expect(await row.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

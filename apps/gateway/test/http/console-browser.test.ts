/**
 * The operator console end to end, in Debian's Chromium against the built gateway (`dist/main.js`,
 * demo mode: provider simulator, embedded database), as `pnpm start` runs it. An administrator
 * signs in with the key pasted into the page, creates a key and reads its secret from the page,
 * the key spends through the API, the spend shows in the usage chart (equal to the key's ledger
 * figure) and in the CSV export, the request is in the log and opens by its x-request-id, the
 * key's quota is edited, revoking one's own key is refused with the reason, the key is revoked
 * and its next request refused (401). A team found by name among more than a page of teams gets
 * a key and an alert URL; the key's spend crosses 80 % and 100 % of its budget, a loopback receiver
 * verifies the two signed `budget.threshold` alerts, and the deliveries screen lists them as
 * delivered; the usage chart shows the spend per team. A video task with a callback shows in the
 * tasks and deliveries screens; a user key sees its balance, read-only. A screenshot of each
 * screen is kept in test-results/console/ (git-ignored).
 */
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateCallbackSecret, type WebhookEvent } from '@modelgate/callbacks';
import { callbackHandler } from '@modelgate/callbacks/node';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestSkipped, CHROMIUM } from '../support/browser.js';
import { type ChildGateway, freePort, startChildGateway } from '../support/child-gateway.js';
import { ensureConsoleBuilt } from '../support/console-build.js';

const MAIN = resolve(import.meta.dirname, '../../dist/main.js');
const SHOTS = resolve(import.meta.dirname, '../../test-results/console');

const skipped = browserTestSkipped('console browser test');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newKey = () => `sk-${Array.from({ length: 48 }, () => BASE62[randomInt(62)]).join('')}`;
/** Credits as the console writes them (2 to 6 decimals). */
const credits = (units: number) =>
  (units / 1_000_000).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  });

type Json = Record<string, unknown>;

/**
 * The budget key's daily budget: a few short chat completions' worth (gpt-4o-mini at $0.15 / $0.60
 * per million tokens; a request reserves its max_tokens of 20, about 15 units with its input).
 */
const KEY_BUDGET_CREDITS = 0.0001;
const KEY_BUDGET_UNITS = 100;
/** Teams made before the test's own, so the team picker must search: more than a page of 100. */
const OTHER_TEAMS = 105;

describe.skipIf(skipped)('the operator console in Chromium', { timeout: 120_000 }, () => {
  const adminKey = newKey();
  let dataDir: string;
  let gw: ChildGateway;
  let browser: Browser;
  let page: Page;
  let receiver: Server;
  /** The callbacks received: their webhook-id and event. */
  const received: { id: string; event: Json }[] = [];
  /** The budget alerts' receiver: every POST it got, and those that verified under the alert secret. */
  const alertSecret = generateCallbackSecret();
  let alertReceiver: Server;
  let alertPosts = 0;
  const alerts: { id: string; event: WebhookEvent }[] = [];
  const pageErrors: string[] = [];

  const api = async (path: string, key: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${gw.url}${path}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    return res;
  };
  const chat = (key: string) =>
    api('/v1/chat/completions', key, {
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello console' }] },
    });
  /** A chat capped at 20 output tokens, so it reserves little of a budget. */
  const shortChat = (key: string) =>
    api('/v1/chat/completions', key, {
      json: {
        model: 'gpt-4o-mini',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'Hello budget' }],
      },
    });
  const shot = async (name: string) => {
    const path = join(SHOTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  };
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }).click();

  beforeAll(async () => {
    if (!existsSync(MAIN)) {
      throw new Error(`${MAIN} is missing: build the gateway first (turbo build).`);
    }
    ensureConsoleBuilt();
    mkdirSync(SHOTS, { recursive: true });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), event: JSON.parse(body) as Json });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const verified = callbackHandler({ secret: alertSecret }, (event, req) => {
      alerts.push({ id: String(req.headers['webhook-id']), event });
    });
    alertReceiver = createServer((req, res) => {
      alertPosts += 1;
      void verified(req, res);
    });
    await new Promise<void>((done) => alertReceiver.listen(0, '127.0.0.1', done));
    dataDir = mkdtempSync(join(tmpdir(), 'mg-console-'));
    gw = await startChildGateway(MAIN, {
      PORT: String(await freePort()),
      CDN_PORT: String(await freePort()),
      MODELGATE_DATA_DIR: dataDir,
      GATEWAY_ADMIN_KEY: adminKey,
      MODELGATE_VIDEO_POLL_INTERVAL_MS: '200',
      MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
      MODELGATE_BUDGET_ALERT_SECRET: alertSecret,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    if (gw && gw.process.exitCode === null) {
      gw.process.kill('SIGTERM');
      await gw.exited;
    }
    receiver?.close();
    alertReceiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    console.log(`console screenshots: ${SHOTS}`);
  });

  it('lets an administrator create, watch, edit and revoke a key', async () => {
    // Sign in with the key pasted into the page.
    await page.goto(`${gw.url}/console`);
    await shot('sign-in');
    await page.getByLabel('API key').fill(adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('who').textContent()).toContain('Administrator');
    expect(page.url()).toBe(`${gw.url}/console`);

    // Create a key; its secret is read from the page.
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name', { exact: true }).fill('console-e2e');
    await form.getByLabel('Quota (credits)').fill('5');
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    const row = page.locator('tr', { hasText: 'console-e2e' });
    await row.waitFor();
    const id = Number(await row.getAttribute('data-key-id'));
    expect(id).toBeGreaterThan(0);
    await shot('keys-created');

    // Spend with it through the API.
    const spent = await chat(secret);
    expect(spent.status).toBe(200);
    const requestId = spent.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    const used = ((await (await api(`/v1/keys/${id}`, adminKey)).json()) as { used: number }).used;
    expect(used).toBeGreaterThan(0);

    // The spend in the usage chart, per key, equal to the ledger's figure for the key.
    await nav('Usage');
    const group = page.getByTestId('usage-groups').locator('tr', { hasText: `key ${id}` });
    await group.waitFor();
    expect(await group.locator('td').last().textContent()).toBe(credits(used));
    expect(
      await page.locator(`[data-testid="usage-chart"] rect[data-group="key ${id}"]`).count(),
    ).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe(
      'bucket_start,bucket_end,key_id,model,kind,team_id,requests,input_tokens,cache_read_tokens,cache_write_5m_tokens,cache_write_1h_tokens,output_tokens,video_seconds,units,cost',
    );
    const keyRows = csv.filter((line) => line.split(',')[2] === String(id));
    expect(keyRows.reduce((sum, line) => sum + Number(line.split(',')[13]), 0)).toBe(used);
    await shot('usage');

    // The request in the log, opened by its x-request-id (and still open after a reload).
    await nav('Request log');
    const link = page.getByTestId('records').getByRole('link', { name: requestId });
    await link.click();
    const detail = page.getByTestId('request-detail');
    await expect.poll(() => detail.textContent()).toContain(requestId);
    expect(page.url()).toContain(`/console/log?request_id=${requestId}`);
    await page.reload();
    await expect
      .poll(() => page.getByTestId('request-detail').textContent())
      .toContain(credits(used));
    await shot('request-log');

    // Edit the key's quota.
    await nav('Keys');
    await page.locator(`tr[data-key-id="${id}"]`).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit key ${id}` });
    await edit.getByLabel('Quota (credits)').fill('7');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator(`tr[data-key-id="${id}"]`).textContent())
      .toContain('7.00');
    const edited = (await (await api(`/v1/keys/${id}`, adminKey)).json()) as Json;
    expect(edited.quota).toBe(7_000_000);
    await shot('keys-edited');

    // Top it up by 3 credits (the amount is asked in a prompt).
    page.once('dialog', (dialog) => void dialog.accept('3'));
    await page.locator(`tr[data-key-id="${id}"]`).getByRole('button', { name: 'Top up' }).click();
    await expect
      .poll(() => page.locator(`tr[data-key-id="${id}"]`).textContent())
      .toContain('10.00');
    expect(((await (await api(`/v1/keys/${id}`, adminKey)).json()) as Json).quota).toBe(10_000_000);

    // Search by name (on the server): only the matching key is listed.
    await page.getByLabel('Name contains').fill('E2E');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('keys').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('keys').locator('tbody tr').getAttribute('data-key-id')).toBe(
      String(id),
    );
    await page.getByLabel('Name contains').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('keys').locator('tbody tr').count()).toBe(2);

    // Revoking the key one is signed in with is refused, and the page says why.
    const keys = (await (await api('/v1/keys?limit=100', adminKey)).json()) as { data: Json[] };
    const adminId = keys.data.find((k) => k.role === 'admin')?.id;
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .locator(`tr[data-key-id="${adminId}"]`)
      .getByRole('button', { name: 'Revoke' })
      .click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('revoking_own_key');
    expect(await alert.textContent()).toContain('sign in with another administrator key');

    // Revoke the new key: its next request is refused.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator(`tr[data-key-id="${id}"]`).getByRole('button', { name: 'Revoke' }).click();
    await expect
      .poll(() => page.locator(`tr[data-key-id="${id}"]`).textContent())
      .toContain('revoked');
    const refused = await chat(secret);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: Json }).error.code).toBe('revoked_api_key');
    await shot('keys-revoked');

    // The audit log shows the key's changes, newest first: revoked, then its quota edits, then created.
    await nav('Audit log');
    await page.locator('input[name="key_id"]').fill(String(id));
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByTestId('audit').locator('tbody tr');
    await expect.poll(() => rows.first().textContent()).toContain('Key revoked');
    expect(await rows.last().textContent()).toContain('Key created');
    expect(await page.getByTestId('audit').textContent()).toContain('quota:');
    await shot('audit');
    expect(pageErrors).toEqual([]);
  });

  it('sets team and key budgets, shows a spent budget, its 402 and its alerts, and raising it lets requests pass', async () => {
    const alertUrl = `http://127.0.0.1:${(alertReceiver.address() as { port: number }).port}/alerts`;
    // A team with a daily budget of 1 credit and the alert receiver's URL, created on the Teams screen.
    await nav('Teams');
    await page.getByRole('button', { name: 'New team' }).click();
    const teamForm = page.getByRole('form', { name: 'New team' });
    await teamForm.getByLabel('Name', { exact: true }).fill('console-team');
    await teamForm.getByLabel('Budget period').selectOption('day');
    await teamForm.getByLabel('Budget (credits per period)').fill('1');
    await teamForm.getByLabel('Alert URL').fill(alertUrl);
    await teamForm.getByRole('button', { name: 'Create team' }).click();
    const teamRow = page.getByTestId('teams').locator('tr', { hasText: 'console-team' });
    await teamRow.waitFor();
    const teamId = Number(await teamRow.getAttribute('data-team-id'));
    expect(await teamRow.textContent()).toContain('0.00 / 1.00 per day');
    expect(await teamRow.textContent()).toContain(alertUrl);
    await shot('teams-created');

    // More teams after it than a page of 100 holds: the picker finds it by name on the server.
    for (let i = 1; i <= OTHER_TEAMS; i++) {
      expect((await api('/v1/teams', adminKey, { json: { name: `filler-${i}` } })).status).toBe(
        200,
      );
    }

    // A key in it with its own daily budget, far smaller than the team's.
    await nav('Keys');
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name', { exact: true }).fill('console-budget');
    await form.getByLabel('Quota (credits)').fill('5');
    await form.getByLabel('Budget period').selectOption('day');
    await form.getByLabel('Budget (credits per period)').fill(String(KEY_BUDGET_CREDITS));
    const teamSelect = form.locator('select[name="team"]');
    await expect.poll(() => teamSelect.locator('option').count()).toBe(21);
    expect(await teamSelect.locator('option').allTextContents()).not.toContain('console-team');
    await form.getByLabel('Find a team by name').fill('CONSOLE-t');
    await expect
      .poll(() => teamSelect.locator('option').allTextContents())
      .toEqual(['none', 'console-team']);
    await teamSelect.selectOption({ label: 'console-team' });
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    const row = page.locator('tr', { hasText: 'console-budget' });
    await row.waitFor();
    const id = Number(await row.getAttribute('data-key-id'));
    const made = (await (await api(`/v1/keys/${id}`, adminKey)).json()) as Json;
    expect(made.team_id).toBe(teamId);
    expect(made.budget).toMatchObject({ amount: KEY_BUDGET_UNITS, period: 'day' });

    // Spend until the key's budget refuses a request: 402 budget_exceeded naming the key's budget.
    let answer = await shortChat(secret);
    let passed = 0;
    while (answer.status === 200 && passed < 200) {
      passed += 1;
      answer = await shortChat(secret);
    }
    expect(passed).toBeGreaterThan(0);
    expect(answer.status).toBe(402);
    const refusal = ((await answer.json()) as { error: Json }).error;
    expect(refusal.code).toBe('budget_exceeded');
    expect(refusal.budget).toMatchObject({
      scope: 'key',
      amount: KEY_BUDGET_CREDITS,
      period: 'day',
    });

    // The key's budget crossed 80 % and then 100 %: the team's alert URL got one signed alert for
    // each, and nothing else (every POST verified under the gateway's alert secret).
    await expect.poll(() => alerts.length, { timeout: 20_000 }).toBe(2);
    const events = alerts.map(({ event }) => event);
    for (const threshold of [80, 100]) {
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'budget.threshold',
          data: expect.objectContaining({
            scope: 'key',
            key_id: id,
            threshold,
            amount: KEY_BUDGET_CREDITS,
            period: 'day',
          }),
        }),
      );
    }
    expect(new Set(alerts.map((a) => a.id)).size).toBe(2);
    expect(alertPosts).toBe(2);

    // The alerts on the deliveries screen (an administrator's budget alerts), both delivered.
    await nav('Callback deliveries');
    await page.locator('select[name="kind"]').selectOption('budget_alert');
    const alertRows = page.getByTestId('deliveries').locator('tbody tr');
    for (const alert of alerts) {
      const delivery = alertRows.filter({ hasText: alert.id });
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            return delivery.textContent();
          },
          { timeout: 15_000 },
        )
        .toContain('delivered');
      expect(await delivery.textContent()).toContain('budget.threshold');
      expect(await delivery.textContent()).toContain(alertUrl);
      expect(await delivery.textContent()).toContain('204');
    }
    expect(await alertRows.count()).toBe(2);
    await shot('budget-alert-deliveries');

    // The spend per team in the usage chart: the team's only key's ledger figure.
    const spentKey = (await (await api(`/v1/keys/${id}`, adminKey)).json()) as {
      used: number;
      budget: { spent: number; amount: number };
    };
    expect(spentKey.budget.spent).toBeGreaterThan(0);
    await nav('Usage');
    await page.locator('select[name="group"]').selectOption('team_id');
    const teamGroup = page
      .getByTestId('usage-groups')
      .locator('tr', { hasText: `team ${teamId} · console-team` });
    await teamGroup.waitFor();
    expect(await teamGroup.locator('td').last().textContent()).toBe(credits(spentKey.used));
    expect(
      await page.locator(`[data-testid="usage-chart"] rect[data-group="team ${teamId}"]`).count(),
    ).toBe(1);
    await shot('usage-per-team');

    // The key's team by name on the Keys screen, linking to the team (found by name on the Teams
    // screen, beyond its first page), with its budget as the API has it.
    await nav('Keys');
    const teamLink = page
      .locator(`tr[data-key-id="${id}"]`)
      .getByTestId('key-team')
      .getByRole('link');
    await expect.poll(() => teamLink.textContent()).toBe('console-team');
    await teamLink.click();
    expect(page.url()).toBe(`${gw.url}/console/teams?name=console-team`);
    await expect.poll(() => page.getByTestId('teams').locator('tbody tr').count()).toBe(1);
    const team = (await (await api(`/v1/teams/${teamId}`, adminKey)).json()) as {
      budget: { spent: number };
      keys: number;
    };
    expect(team.budget.spent).toBeGreaterThan(0);
    expect(team.keys).toBe(1);
    await expect
      .poll(() => teamRow.getByTestId('team-budget').textContent())
      .toBe(`${credits(team.budget.spent)} / 1.00 per day`);

    // A team that still has keys cannot be deleted: the 409 and what to do are on the page.
    page.once('dialog', (dialog) => void dialog.accept());
    await teamRow.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('team_has_keys');
    expect(await page.getByRole('alert').textContent()).toContain('409');
    await shot('teams-delete-refused');

    await nav('Keys');
    await expect
      .poll(() => page.locator(`tr[data-key-id="${id}"]`).getByTestId('key-budget').textContent())
      .toBe(`${credits(spentKey.budget.spent)} / ${credits(spentKey.budget.amount)} per day`);
    await shot('keys-budget-spent');

    // Raise the key's budget tenfold in the console: audited before → after, next request passes.
    await page.locator(`tr[data-key-id="${id}"]`).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit key ${id}` });
    // The key's team is selected from the first render, named once read (it is on no page shown).
    const editTeam = edit.locator('select[name="team"]');
    expect(await editTeam.inputValue()).toBe(String(teamId));
    await expect.poll(() => editTeam.locator('option:checked').textContent()).toBe('console-team');
    await edit.getByLabel('Budget (credits per period)').fill(String(KEY_BUDGET_CREDITS * 10));
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator(`tr[data-key-id="${id}"]`).getByTestId('key-budget').textContent())
      .toContain(`/ ${credits(KEY_BUDGET_UNITS * 10)} per day`);
    await nav('Audit log');
    await page.locator('input[name="key_id"]').fill(String(id));
    await page.getByRole('button', { name: 'Filter' }).click();
    const latest = page.getByTestId('audit').locator('tbody tr').first();
    await expect.poll(() => latest.textContent()).toContain('Key changed');
    const amount = (units: number) => new RegExp(`"amount":${units}\\b`);
    expect(await latest.textContent()).toMatch(amount(KEY_BUDGET_UNITS));
    expect(await latest.textContent()).toMatch(amount(KEY_BUDGET_UNITS * 10));
    await shot('audit-budget');
    expect((await shortChat(secret)).status).toBe(200);
    // One alert per budget, period and threshold: nothing more was sent.
    expect(alertPosts).toBe(2);
    expect(pageErrors).toEqual([]);
  });

  it('shows video tasks with their preview, and the callback deliveries with their attempts', async () => {
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const created = await api('/v1/video/generations', adminKey, {
      json: { model: 'kling-v3', prompt: 'A red kite over the sea', callback_url: callbackUrl },
    });
    expect(created.status).toBe(200);
    const taskId = ((await created.json()) as { task_id: string }).task_id;

    await nav('Video tasks');
    await page
      .getByTestId('tasks')
      .locator('tr', { hasText: taskId })
      .getByRole('button', { name: 'Open' })
      .click();
    const detail = page.getByTestId('task-detail');
    await detail.locator('video').waitFor({ timeout: 30_000 });
    expect(await detail.textContent()).toContain('completed');
    await shot('video-tasks');

    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await nav('Callback deliveries');
    const delivery = page.getByTestId('deliveries').locator('tr', { hasText: taskId });
    await expect.poll(() => delivery.textContent(), { timeout: 15_000 }).toContain('delivered');
    expect(await delivery.textContent()).toContain('204');

    // Sent again from the page: the same webhook-id arrives a second time.
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    expect(received[1]!.event).toEqual(received[0]!.event);
    // The row shows both attempts once the page reads the list again.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return delivery.locator('.attempts li').count();
        },
        { timeout: 15_000 },
      )
      .toBe(2);
    expect(await delivery.textContent()).toContain('delivered');
    await shot('callback-deliveries');

    // Another key's tasks, named by key id: listed, and previewed from the list once completed.
    const other = (await (
      await api('/v1/token', adminKey, { json: { name: 'console-video', quota: 100_000_000 } })
    ).json()) as { id: number; key: string };
    const theirs = await api('/v1/video/generations', other.key, {
      json: { model: 'kling-v3', prompt: 'Someone else’s kite' },
    });
    const theirTask = ((await theirs.json()) as { task_id: string }).task_id;
    await nav('Video tasks');
    await page.getByLabel('Key id (empty: this key)').fill(String(other.id));
    await page.getByRole('button', { name: 'Show' }).click();
    const theirRow = page.getByTestId('tasks').locator('tr', { hasText: theirTask });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return theirRow.textContent();
        },
        { timeout: 30_000 },
      )
      .toContain('completed');
    await theirRow.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('task-detail').locator('video').waitFor();
    await shot('video-tasks-other-key');
    expect(pageErrors).toEqual([]);
  });

  it('shows a user key its own balance and usage, without the administration screens', async () => {
    const made = await api('/v1/token', adminKey, {
      json: {
        name: 'console-user',
        quota: 3_000_000,
        budget: { amount: 2_000_000, period: 'week' },
      },
    });
    const userKey = ((await made.json()) as { key: string }).key;
    expect((await chat(userKey)).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(userKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('who').textContent()).toContain('Read-only');
    const links = await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link')
      .allTextContents();
    expect(links).not.toContain('Keys');
    await nav('Balance');
    const balance = (await (await api('/v1/dashboard/billing/credit_grants', userKey)).json()) as {
      total_used: number;
    };
    await expect
      .poll(() => page.getByTestId('balance').textContent())
      .toContain(credits(balance.total_used * 1_000_000));
    // Its weekly budget, spent by the one request; no team, so no team budget.
    const budgets = page.getByTestId('balance-budgets');
    expect(await budgets.locator('tr[data-budget="Key"]').textContent()).toContain(
      `${credits(balance.total_used * 1_000_000)} / 2.00per week`,
    );
    expect(await budgets.locator('tr[data-budget="Team"]').textContent()).toContain('none');
    await shot('user-balance');

    await nav('Request log');
    await expect.poll(() => page.getByTestId('records').locator('tbody tr').count()).toBe(1);
    await shot('user-request-log');
    expect(pageErrors).toEqual([]);
  });
});

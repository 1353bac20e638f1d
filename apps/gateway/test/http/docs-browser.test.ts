/**
 * The reference page at /docs, in Debian's Chromium: it renders the spec with nothing fetched from
 * another host, and every Markdown table in the spec's descriptions is a real table on the page
 * (the header row of each is found in a rendered <table>). A screenshot is kept in test-results/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { browserTestSkipped, CHROMIUM } from '../support/browser.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const SPEC = resolve(import.meta.dirname, '../../../../spec/openapi.yaml');
const SHOTS = resolve(import.meta.dirname, '../../test-results');

const skipped = browserTestSkipped('/docs browser test');

/** Every string under a `description` key, anywhere in the document. */
function descriptions(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) descriptions(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') out.push(value);
      else descriptions(value, out);
    }
  }
  return out;
}

/** The header cells of each Markdown table (a `|` row followed by a `|---|` row). */
function markdownTableHeaders(text: string): string[][] {
  const lines = text.split('\n').map((l) => l.trim());
  const headers: string[][] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i]?.startsWith('|') && /^\|(\s*:?-+:?\s*\|)+$/.test(lines[i + 1] ?? '')) {
      const cells = lines[i]!.split('|').slice(1, -1);
      headers.push(cells.map((c) => c.replace(/[`*]/g, '').trim()));
    }
  }
  return headers;
}

const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();

describe.skipIf(skipped)('the /docs reference in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: false });
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
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('renders every Markdown table of the spec, loading nothing from another host', async () => {
    const expected = descriptions(parse(readFileSync(SPEC, 'utf8'))).flatMap(markdownTableHeaders);
    expect(expected.length).toBeGreaterThanOrEqual(3);

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const elsewhere: string[] = [];
    const errors: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(gw.url) && !req.url().startsWith('data:'))
        elsewhere.push(req.url());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${gw.url}/docs`);
    await page.getByRole('heading', { name: 'modelgate API', level: 1 }).waitFor();
    // Operations render as they scroll into view: scroll to the end, one screen at a time, until the
    // page stops growing. The loop runs inside the page, so a step costs no round trip to the test.
    await page.evaluate(async () => {
      const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
      let height = 0;
      for (let i = 0; i < 2_000; i++) {
        window.scrollBy(0, window.innerHeight);
        await settle();
        const now = document.body.scrollHeight;
        const atEnd = window.scrollY + window.innerHeight >= now - 10;
        if (atEnd && now === height) return;
        height = now;
      }
    });
    const rendered = await page.$$eval('table', (tables) =>
      tables.map((t) =>
        [...(t.querySelector('tr')?.children ?? [])].map((c) => c.textContent ?? ''),
      ),
    );
    const renderedHeads = rendered.map((cells) => cells.map(normalise).join(' | '));
    for (const header of expected)
      expect(renderedHeads).toContain(header.map(normalise).join(' | '));

    mkdirSync(SHOTS, { recursive: true });
    await page.goto(`${gw.url}/docs`);
    await page.getByRole('heading', { name: 'modelgate API', level: 1 }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'docs.png') });
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    // Rendering the whole reference took 16 s beside two builds on 2 cores, and over 30 s inside
    // the full suite in CI: the test gets 180 s.
  }, 180_000);
});

/**
 * The console's static files at /console: the page for every screen path (the app routes in the
 * browser), its hashed assets with their content types and a year's immutable caching, gzip for
 * text, a 304 for a page the browser has, and a 404 in the documented shape for an asset that
 * is not there (never the page in its place).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../support/console-build.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('GET /console', () => {
  let gw: TestGateway;
  let index: string;
  beforeAll(async () => {
    index = readFileSync(join(ensureConsoleBuilt(), 'index.html'), 'utf8');
    gw = await startTestGateway({ simulator: false });
  });
  afterAll(() => gw?.close());

  it('answers the page for /console, /console/ and every screen path, revalidated each time', async () => {
    for (const path of [
      '/console',
      '/console/',
      '/console/keys',
      '/console/log?request_id=req_1',
    ]) {
      const res = await fetch(`${gw.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toBe(index);
    }
    const first = await fetch(`${gw.url}/console/usage`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await fetch(`${gw.url}/console/usage`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('serves each hashed asset the page names with its type, cached for a year, gzipped on request', async () => {
    const assets = [...index.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`${gw.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status, asset).toBe(200);
      const type = asset.endsWith('.js') ? 'text/javascript' : 'text/css';
      expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-encoding')).toBe('gzip');
      // fetch decompresses: the bytes are the built file's.
      const built = readFileSync(join(ensureConsoleBuilt(), asset.slice('/console/'.length)));
      expect(Buffer.from(await res.arrayBuffer()).equals(built)).toBe(true);
    }
  });

  it('answers a missing asset with a 404 error, not the page', async () => {
    const res = await fetch(`${gw.url}/console/assets/nope.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('route_not_found');
    expect(error.message).toContain('assets/nope.js');
  });
});

/**
 * The two defects the spec-driven fuzzer found on the text routes: a dropped field whose name is
 * not Latin-1 must not break the answer's head (nor charge for an answer never sent), and an empty
 * `anthropic-version` is a 400 (the vendor header is a date; only `vendor-version` may be blank).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeHeaderValue } from '../../src/http/header-value.js';
import { droppedParamsValue } from '../../src/translate/dropped.js';

import { startTestGateway, type TestGateway } from '../support/index.js';

describe('fuzzer defects', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const used = async (key: string) => {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    return ((await res.json()) as { total_used: number }).total_used;
  };

  it('answers a translated request whose dropped field name is outside Latin-1, and names it encoded', async () => {
    const { key } = await gw.createKey();
    for (const stream of [false, true]) {
      const res = await gw.fetch('/v1/completions', {
        method: 'POST',
        key,
        json: { '\u0100': [], 'a,b': 1, model: 'claude-sonnet-4-5', prompt: '', stream },
      });
      expect(res.status).toBe(200);
      const dropped = res.headers.get('x-modelgate-dropped-params') ?? '';
      expect(dropped.split(',').map(decodeURIComponent).sort()).toEqual(['a,b', '\u0100']);
      const text = await res.text();
      expect(text.length).toBeGreaterThan(0);
    }
    // Both answers arrived, and both were charged (no free answer, no charge without one).
    await expect.poll(() => used(key), { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('encodes any unsafe header value, lone surrogates included', () => {
    expect(safeHeaderValue('plain, value')).toBe('plain, value');
    expect(safeHeaderValue('\u0100\n')).toBe('%C4%80%0A');
    expect(safeHeaderValue('x\ud800')).toBe('x%EF%BF%BD');
    expect(droppedParamsValue(['seed', 'tools.*.strict', '\ud800'])).toBe(
      'seed,tools.*.strict,%EF%BF%BD',
    );
  });

  it('refuses an empty anthropic-version, but takes an empty vendor-version as absent', async () => {
    const { key } = await gw.createKey();
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const empty = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json: body,
      headers: { 'anthropic-version': '' },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    const blankVendor = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json: body,
      headers: { 'vendor-version': ' ', 'anthropic-version': '2023-06-01' },
    });
    expect(blankVendor.status).toBe(200);
    await blankVendor.text();
  });
});

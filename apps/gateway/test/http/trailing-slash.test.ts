// One trailing slash is dropped at the listener, for every route: `POST /v1/chat/completions/`
// (the text edge) and `GET /v1/models/` (the app) are served as without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutTrailingSlash } from '../../src/http/trailing-slash.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('withoutTrailingSlash', () => {
  it('drops one slash before the query, leaves / and absolute-form alone', () => {
    expect(withoutTrailingSlash('/v1/chat/completions/')).toBe('/v1/chat/completions');
    expect(withoutTrailingSlash('/v1/models/?limit=2')).toBe('/v1/models?limit=2');
    expect(withoutTrailingSlash('/v1/models')).toBe('/v1/models');
    expect(withoutTrailingSlash('/')).toBe('/');
    expect(withoutTrailingSlash('http://h/v1/models/')).toBe('http://h/v1/models/');
  });
});

describe('a trailing slash on the wire', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey({ quota: 100_000_000 }));
  });
  afterAll(() => gw?.close());

  it('POST /v1/chat/completions/ answers the chat completion', async () => {
    const res = await fetch(`${gw.url}/v1/chat/completions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
  });

  it('GET /v1/models/ lists the models', async () => {
    const res = await fetch(`${gw.url}/v1/models/`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe('list');
  });
});

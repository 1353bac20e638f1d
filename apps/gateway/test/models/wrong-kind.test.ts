// A model named on an endpoint that does not serve its kind: the 404 says what kind of model it is
// and names the endpoint that serves it, instead of that the model does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

let gw: TestGateway;
let key: string;
beforeAll(async () => {
  gw = await startTestGateway();
  ({ key } = await gw.createKey({ quota: 100_000_000 }));
});
afterAll(() => gw?.close());

async function post(path: string, body: unknown) {
  const res = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    error: ((await res.json()) as { error: Record<string, string> }).error,
  };
}

const chat = (model: string) =>
  post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Hi' }] });

describe('a model on the wrong endpoint', () => {
  it('a video model on chat names the video endpoint', async () => {
    const { status, error } = await chat('kling-v3');
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: 'model_not_found',
      param: 'model',
      type: 'not_found_error',
    });
    expect(error.message).toContain('"kling-v3" is a video model');
    expect(error.message).toContain('POST /v1/video/generations');
    expect(error.message).not.toContain('does not exist');
  });

  it('an image or embedding model on chat (and on messages) names its endpoint', async () => {
    expect((await chat('dall-e-3')).error.message).toContain('is an image model');
    expect((await chat('dall-e-3')).error.message).toContain('POST /v1/images/generations');
    expect((await chat('text-embedding-3-small')).error.message).toContain('POST /v1/embeddings');
    const messages = await post('/v1/messages', {
      model: 'kling-v3',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(messages.error.message).toContain('POST /v1/video/generations');
  });

  it('a text model on images or embeddings names the text endpoint', async () => {
    const image = await post('/v1/images/generations', { model: 'gpt-4o-mini', prompt: 'a boat' });
    expect(image.status).toBe(404);
    expect(image.error.message).toContain('"gpt-4o-mini" is a text model');
    expect(image.error.message).toContain('POST /v1/chat/completions');
    const embedding = await post('/v1/embeddings', { model: 'gpt-4o-mini', input: 'hi' });
    expect(embedding.error.message).toContain('is a text model');
  });

  it('a text model on video says what it is', async () => {
    const video = await post('/v1/video/generations', { model: 'gpt-4o-mini', prompt: 'a boat' });
    expect(video.status).toBeLessThan(500);
    expect(video.error.message).toContain('is a text model');
  });

  it('an id no endpoint knows still does not exist', async () => {
    const { status, error } = await chat('no-such-model');
    expect(status).toBe(404);
    expect(error.message).toBe('The model "no-such-model" does not exist.');
  });
});

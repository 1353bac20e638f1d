/**
 * The eager upstream body: `collect()` reads a whole answer without a generator per chunk, and
 * must not stall on long bodies (the iterator pauses the socket at 64 queued chunks; nobody
 * dequeues while collecting) nor lose a failure.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eagerBody } from '../../src/providers/text/body.js';
import { httpTarget } from '../../src/providers/text/http.js';

describe('eagerBody().collect()', () => {
  it('collects a body of many more chunks than the pause threshold', async () => {
    const source = new PassThrough();
    const body = eagerBody(source);
    const done = body.collect();
    for (let i = 0; i < 500; i++) source.write(`${i},`);
    source.end('end');
    const text = (await done).toString('utf8');
    expect(text.split(',')).toHaveLength(501);
    expect(text.endsWith('499,end')).toBe(true);
  });

  it('resolves at once for a body that has already ended', async () => {
    const source = new PassThrough();
    const body = eagerBody(source);
    source.end('{"ok":true}');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await body.collect()).toString()).toBe('{"ok":true}');
  });

  it('rejects when the upstream breaks before the end', async () => {
    const source = new PassThrough();
    const body = eagerBody(source);
    const done = body.collect();
    source.write('{"partial":');
    source.destroy(new Error('socket hang up'));
    await expect(done).rejects.toThrow('socket hang up');
  });
});

describe('httpTarget', () => {
  it('splits the base URL once: origin for the pool, base path joined to the operation', () => {
    expect(httpTarget('https://api.openai.com/v1/', '/chat/completions', {})).toEqual({
      origin: 'https://api.openai.com',
      path: '/v1/chat/completions',
      headers: {},
    });
    expect(httpTarget('http://127.0.0.1:9090/openai/v1', '/completions', { a: 'b' })).toEqual({
      origin: 'http://127.0.0.1:9090',
      path: '/openai/v1/completions',
      headers: { a: 'b' },
    });
    expect(httpTarget('https://api.anthropic.com', '/v1/messages', {}).path).toBe('/v1/messages');
  });
});

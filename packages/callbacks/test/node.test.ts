import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { generateCallbackSecret, signCallback, type WebhookEvent } from '../src/index.js';
import { callbackHandler, type NextFunction } from '../src/node.js';

const secret = generateCallbackSecret();
const event = { type: 'video.task.cancelled', timestamp: 1_700_000_000, data: { task_id: 'vt_3' } };
const body = JSON.stringify(event);

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
}

async function post(url: string, init: { body?: string; secret?: string } = {}) {
  const payload = init.body ?? body;
  const headers = await signCallback({
    id: 'msg_node',
    timestamp: new Date(),
    body: payload,
    secret: init.secret ?? secret,
  });
  return fetch(url, {
    method: 'POST',
    body: payload,
    headers: { ...headers, 'content-type': 'application/json' },
  });
}

// A minimal Express-style chain: each middleware gets (req, res, next); next(error) skips to the
// error handler. Real middleware semantics, no framework.
type Middleware = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => unknown;
function chain(middlewares: Middleware[]): http.RequestListener {
  return (req, res) => {
    const run = (index: number, error?: unknown) => {
      if (error !== undefined) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ chainError: (error as Error).message, name: (error as Error).name }),
        );
        return;
      }
      const middleware = middlewares[index];
      if (!middleware) {
        res.statusCode = 404;
        res.end();
        return;
      }
      middleware(req, res, (nextError?: unknown) => run(index + 1, nextError));
    };
    run(0);
  };
}

// Like express.json(): consumes the stream and leaves a parsed object in req.body.
const jsonParser: Middleware = (req, _res, next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    (req as IncomingMessage & { body?: unknown }).body = JSON.parse(
      Buffer.concat(chunks).toString(),
    );
    next();
  });
};

// Like a `verify` hook that keeps the raw bytes while parsing.
const rawKeepingParser: Middleware = (req, _res, next) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    Object.assign(req, { rawBody: raw, body: JSON.parse(raw.toString()) });
    next();
  });
};

describe('callbackHandler on a node:http server', () => {
  it('reads the body itself, calls onEvent and answers 204', async () => {
    const seen: WebhookEvent[] = [];
    const url = await listen(
      callbackHandler({ secret }, (received) => {
        seen.push(received);
      }),
    );
    const response = await post(url);
    expect(response.status).toBe(204);
    expect(seen).toEqual([event]);
  });

  it('answers 401 with a JSON reason for a wrong secret', async () => {
    let calls = 0;
    const url = await listen(callbackHandler({ secret }, () => void calls++));
    const response = await post(url, { secret: generateCallbackSecret() });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { reason: 'invalid_signature' } });
    expect(calls).toBe(0);
  });

  it('answers 400 for a request without webhook headers', async () => {
    const url = await listen(callbackHandler({ secret }, () => {}));
    const response = await fetch(url, { method: 'POST', body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { reason: 'missing_header', header: 'webhook-id' },
    });
  });

  it("keeps onEvent's own answer", async () => {
    const url = await listen(
      callbackHandler({ secret }, (_event, _req, res) => {
        res.statusCode = 200;
        res.end('thanks');
      }),
    );
    const response = await post(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('thanks');
  });

  it('answers 413 above maxBodyBytes', async () => {
    const url = await listen(callbackHandler({ secret, maxBodyBytes: 16 }, () => {}));
    const response = await post(url);
    expect(response.status).toBe(413);
  });

  it('answers 500 without leaking the message when onEvent fails and there is no next', async () => {
    const url = await listen(
      callbackHandler({ secret }, () => {
        throw new Error('secret internals');
      }),
    );
    const response = await post(url);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toContain('handler_error');
    expect(text).not.toContain('secret internals');
  });
});

describe('callbackHandler in an Express-style chain', () => {
  it('works as middleware after an unrelated one', async () => {
    const seen: string[] = [];
    const tag: Middleware = (req, _res, next) => {
      seen.push(`tag:${req.method}`);
      next();
    };
    const url = await listen(
      chain([tag, callbackHandler({ secret }, (received) => void seen.push(received.type))]),
    );
    expect((await post(url)).status).toBe(204);
    expect(seen).toEqual(['tag:POST', 'video.task.cancelled']);
  });

  it('uses req.rawBody kept by an earlier parser', async () => {
    const seen: WebhookEvent[] = [];
    const url = await listen(
      chain([
        rawKeepingParser,
        callbackHandler({ secret }, (received) => void seen.push(received)),
      ]),
    );
    expect((await post(url)).status).toBe(204);
    expect(seen).toEqual([event]);
  });

  it('refuses a JSON-parsed body through next(error) with a clear message', async () => {
    const url = await listen(chain([jsonParser, callbackHandler({ secret }, () => {})]));
    const response = await post(url);
    expect(response.status).toBe(500);
    const answer = (await response.json()) as { chainError: string; name: string };
    expect(answer.name).toBe('RawBodyUnavailableError');
    expect(answer.chainError).toMatch(/raw request body/);
  });

  it('passes an error thrown by onEvent to next', async () => {
    const url = await listen(
      chain([
        callbackHandler({ secret }, async () => {
          throw new Error('queue full');
        }),
      ]),
    );
    const response = await post(url);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ chainError: 'queue full' });
  });
});

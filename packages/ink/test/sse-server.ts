// A loopback chat server that streams one chunk every 10 ms until the client hangs up: an answer
// that only a stop can end. It records whether the connection was closed by the client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EndlessStreamServer {
  url: string;
  /** Resolves when a client closed its streaming connection. */
  clientClosed: Promise<void>;
  close(): Promise<void>;
}

/** `piece(n)` is the content of chunk n (default `word<n> `). */
export async function startEndlessStreamServer(
  piece: (n: number) => string = (n) => `word${n} `,
): Promise<EndlessStreamServer> {
  let markClosed!: () => void;
  const clientClosed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'not here', type: 'not_found_error', code: null } }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let n = 0;
    const timer = setInterval(() => {
      const chunk = {
        id: 'chatcmpl-endless',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'endless-model',
        choices: [{ index: 0, delta: { content: piece(n++) }, finish_reason: null }],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }, 10);
    res.on('close', () => {
      clearInterval(timer);
      markClosed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat server that streams `answer` in pieces of `pieceLength` characters, then `[DONE]`. */
export async function startScriptedStreamServer(
  answer: string,
  pieceLength = 7,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'not here', type: 'not_found_error', code: null } }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let at = 0; at < answer.length; at += pieceLength) {
      const chunk = {
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'scripted-model',
        choices: [
          { index: 0, delta: { content: answer.slice(at, at + pieceLength) }, finish_reason: null },
        ],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

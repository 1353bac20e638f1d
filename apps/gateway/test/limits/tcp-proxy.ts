/**
 * A TCP proxy on 127.0.0.1 port 0 in front of a real server (the machine's Redis), so a test can
 * take "Redis" away from one client — cut every connection, or stall them — without touching
 * the server other clients use.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  url: string;
  /** Close every connection and stop listening: the client sees a server that went away. */
  cut(): Promise<void>;
  /** Listen again on the same port and forward again. */
  restore(): Promise<void>;
  /** Keep connections open but forward nothing until restore(): a server that hangs. */
  stall(): void;
  /**
   * Answer the next client chunk for which `reply` returns bytes with those bytes instead of
   * forwarding it (once): a server error the real server would not produce on demand.
   */
  answerOnce(reply: (chunk: Buffer) => string | null): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const held: Array<() => void> = [];
  let answer: ((chunk: Buffer) => string | null) | null = null;

  const track = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  };
  // Bytes are held, not dropped, while stalled: TCP would deliver them late, in order.
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
  };
  const fromClient = (client: Socket, upstream: Socket) => {
    client.on('data', (chunk: Buffer) => {
      const reply = answer?.(chunk) ?? null;
      if (reply !== null) {
        answer = null;
        client.write(reply);
      } else if (stalled) held.push(() => upstream.write(chunk));
      else upstream.write(chunk);
    });
    client.on('close', () => upstream.destroy());
  };

  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        track(client);
        track(upstream);
        fromClient(client, upstream);
        forward(upstream, client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });

  const port = await listen(0);
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: stop,
    async restore() {
      stalled = false;
      for (const release of held.splice(0)) release();
      if (!server.listening) await listen(port);
    },
    stall() {
      stalled = true;
    },
    answerOnce(reply) {
      answer = reply;
    },
    close: stop,
  };
}

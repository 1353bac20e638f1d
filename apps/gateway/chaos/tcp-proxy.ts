/**
 * A TCP proxy on 127.0.0.1 in front of a shared server (the machine's PostgreSQL or Redis). The chaos
 * run takes that server away from the gateways only — by closing every proxied connection and
 * refusing new ones — while the real server keeps serving everyone else on the machine.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ChaosProxy {
  port: number;
  /** Close every proxied connection and stop listening (clients see "connection refused"). */
  cut(): Promise<void>;
  /** Listen again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startChaosProxy(target: { host: string; port: number }): Promise<ChaosProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  };
  const pipePair = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer(pipePair);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        const address = next.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server?.listening) return resolve();
      server.close(() => resolve());
      server = null;
    });

  const port = await listen(0);
  return {
    port,
    cut: stop,
    async restore() {
      if (!server?.listening) await listen(port);
    },
    close: stop,
  };
}

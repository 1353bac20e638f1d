// A port that is already taken: the gateway says which variable to set, exits 1, and generates no
// admin key on the way (a key printed by a start that then failed would be a key nobody can use).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGatewayMain, freePort, runGatewayToExit } from '../support/child-gateway.js';

let built: Awaited<ReturnType<typeof buildGatewayMain>>;
let taken: Server;
let takenPort: number;
let dataDir: string;
beforeAll(async () => {
  built = await buildGatewayMain();
  taken = createServer();
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
  takenPort = (taken.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'mg-busy-'));
}, 120_000);
afterAll(async () => {
  taken?.close();
  await built?.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string>) =>
  runGatewayToExit(built.main, [], { HOST: '127.0.0.1', MODELGATE_DATA_DIR: dataDir, ...env });

describe('a busy port', () => {
  it('names PORT, exits 1 and generates no admin key', { timeout: 120_000 }, async () => {
    const { code, out } = await start({
      PORT: String(takenPort),
      CDN_PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    expect(out).toContain(`port ${takenPort} is already in use; set PORT to a free port`);
    expect(out).not.toContain('"stack"');
    expect(out).not.toContain('admin key');
    expect(existsSync(join(dataDir, 'admin-key'))).toBe(false);
  });

  it('names CDN_PORT when the files port is the busy one', { timeout: 120_000 }, async () => {
    const { code, out } = await start({
      PORT: String(await freePort()),
      CDN_PORT: String(takenPort),
    });
    expect(code).toBe(1);
    expect(out).toContain(`port ${takenPort} is already in use; set CDN_PORT to a free port`);
  });
});

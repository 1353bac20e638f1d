// Runs the built gateway (dist/main.js) as a child process, for crash and multi-instance tests.
// The build goes to a private directory under node_modules/.cache, so a test never races another
// helper's `pnpm build` of dist/ (the files are the same tsup build as dist/main.js).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const PACKAGE_DIR = resolve(import.meta.dirname, '../..');

/** Builds src/main.ts with the package's tsup settings; returns the path of main.js. */
export async function buildGatewayMain(): Promise<{ main: string; cleanup(): Promise<void> }> {
  const outDir = join(
    PACKAGE_DIR,
    'node_modules',
    '.cache',
    `mg-video-${process.pid}-${Date.now()}`,
  );
  const { build } = await import('tsup');
  const specPath = resolve(PACKAGE_DIR, '../../spec/openapi.yaml');
  await build({
    entry: [join(PACKAGE_DIR, 'src/main.ts'), join(PACKAGE_DIR, 'src/index.ts')],
    format: ['esm'],
    target: 'node20',
    outDir,
    splitting: true,
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
    config: false,
    define: {
      __MODELGATE_OPENAPI_YAML__: JSON.stringify(
        existsSync(specPath) ? readFileSync(specPath, 'utf8') : '',
      ),
    },
  });
  return {
    main: join(outDir, 'main.js'),
    cleanup: () => rm(outDir, { recursive: true, force: true }),
  };
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ChildGateway {
  url: string;
  process: ChildProcess;
  output: string[];
  /** Resolves with the exit code/signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node main.js` with `env` and waits for /readyz. */
export async function startChildGateway(
  main: string,
  env: Record<string, string>,
): Promise<ChildGateway> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  // A guard against a hang, not a speed check: in a full run on two cores a start can take a minute.
  const until = Date.now() + 180_000;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  for (;;) {
    if (gone) throw new Error(`gateway exited during start:\n${output.join('')}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not become ready:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, process: child, output, exited };
}

/**
 * Runs `node main.js …args` to its end (a command, or a start that fails) and resolves with its
 * exit code and everything it printed.
 */
export function runGatewayToExit(
  main: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [main, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    const collect = (d: Buffer) => {
      out += d.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => done({ code, out }));
  });
}

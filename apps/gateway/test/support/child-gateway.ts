// Runs the built gateway as a child process, for crash and multi-instance tests. The build is the
// package's tsup build of src/ made for the test run under node_modules/.cache (not dist/, which
// may be older than src/ when a test is run by hand, and is rebuilt by `pnpm build` meanwhile).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { gatewayBuildDir } from './run-dir.js';

const PACKAGE_DIR = resolve(import.meta.dirname, '../..');

/** Builds src/main.ts into `outDir` with the package's tsup settings. */
async function buildInto(outDir: string): Promise<void> {
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
}

/**
 * The built gateway's main.js: the test run's one build (global-setup.ts's folder), made by the
 * first test file that asks, or a private build when the run has no such folder (the chaos run).
 * A build takes 5-10 s on two busy cores; seven test files ask for one.
 */
export async function buildGatewayMain(): Promise<{ main: string; cleanup(): Promise<void> }> {
  const runDir = inject('testRunDir');
  if (!runDir) {
    const outDir = join(
      PACKAGE_DIR,
      'node_modules',
      '.cache',
      `mg-gateway-${process.pid}-${Date.now()}`,
    );
    await buildInto(outDir);
    return {
      main: join(outDir, 'main.js'),
      cleanup: () => rm(outDir, { recursive: true, force: true }),
    };
  }
  const shared = gatewayBuildDir(runDir);
  if (!existsSync(join(shared, 'main.js'))) {
    // Two files may build at once: each builds beside it and renames into place; a rename onto
    // the folder another file finished first fails, and that build is dropped.
    const own = `${shared}-${process.pid}-${Date.now()}`;
    await buildInto(own);
    try {
      renameSync(own, shared);
    } catch {
      await rm(own, { recursive: true, force: true });
    }
  }
  return { main: join(shared, 'main.js'), cleanup: async () => {} };
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

/**
 * The gateway as a real child process (`node main.mjs`), so a test can SIGKILL it. The entry is
 * bundled from src/ with esbuild (tsup's own copy) into a temporary folder inside this package, so the
 * child runs the current source and resolves its dependencies from node_modules like dist/ would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const gatewayDir = fileURLToPath(new URL('../../', import.meta.url));

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** Bundles src/main.ts; returns the entry path and a cleanup. */
export async function bundleGateway(): Promise<{ entry: string; remove(): Promise<void> }> {
  const require = createRequire(import.meta.url);
  const esbuild = createRequire(require.resolve('tsup'))('esbuild') as EsbuildApi;
  const dir = await mkdtemp(`${gatewayDir}test/callbacks/.child-build-`);
  const entry = `${dir}/main.mjs`;
  await esbuild.build({
    entryPoints: [`${gatewayDir}src/main.ts`],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define: { __MODELGATE_OPENAPI_YAML__: '""' },
    logLevel: 'error',
  });
  return { entry, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ChildGateway {
  url: string;
  process: ChildProcess;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts the bundled gateway with `env` and resolves once it logs "listening". */
export function startChildGateway(
  entry: string,
  env: Record<string, string>,
): Promise<ChildGateway> {
  const child = spawn(process.execPath, [entry], {
    cwd: gatewayDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', CDN_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child gateway did not start in time\n${stderr}`));
      // A loaded 2-core CI machine starts an embedded database after a SIGKILL in ~25 s.
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child gateway exited with ${code}\n${stderr}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        logs.push(record);
        if (record.msg === 'listening') {
          clearTimeout(timer);
          resolve({
            url: String(record.url),
            process: child,
            logs,
            async kill(signal) {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              await exited;
            },
          });
        }
      }
    });
  });
}

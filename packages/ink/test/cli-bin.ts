// Runs the built `modelgate` binary (dist/cli.js) as a user would.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Fails loudly when the binary has not been built (turbo builds before testing; `pnpm build` by hand). */
export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run \`pnpm build\` in packages/ink first`);
  }
}

/** Never created: commands that write the config file get a directory of their own from the test. */
const NO_CONFIG_HOME = join(tmpdir(), `modelgate-ink-no-config-${process.pid}`);

const MODELGATE_VARIABLES = [
  'MODELGATE_BASE_URL',
  'MODELGATE_API_KEY',
  'MODELGATE_ADMIN_KEY',
  'MODELGATE_MODEL',
  'MODELGATE_PROFILE',
];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
  /** Called once the process runs (to signal it, say); stdin then stays open until it exits. */
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Runs `node dist/cli.js …args` with pipes (not a TTY), optional stdin, a clean MODELGATE_* env and,
 * unless `env` names one, a config directory that does not exist (never the user's config file).
 */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  assertBuilt();
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: NO_CONFIG_HOME,
    ...options.env,
  };
  for (const name of MODELGATE_VARIABLES) {
    if (!options.env?.[name]) delete env[name];
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`modelgate ${args.join(' ')} did not exit; stderr: ${stderr}`));
    }, options.timeoutMs ?? 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.onSpawn) {
      if (options.stdin !== undefined) child.stdin.write(options.stdin);
      options.onSpawn(child);
    } else {
      child.stdin.end(options.stdin ?? '');
    }
  });
}

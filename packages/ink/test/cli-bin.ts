// Runs the built `modelgate` binary (dist/cli.js) as a user would.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Fails loudly when the binary has not been built (turbo builds before testing; `pnpm build` by hand). */
export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run \`pnpm build\` in packages/ink first`);
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli.js …args` with pipes (not a TTY), optional stdin, a clean MODELGATE_* env. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  assertBuilt();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const name of ['MODELGATE_BASE_URL', 'MODELGATE_API_KEY', 'MODELGATE_MODEL']) {
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
    child.stdin.end(options.stdin ?? '');
  });
}

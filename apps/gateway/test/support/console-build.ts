// The console's built files, as the gateway's /console route serves them: built once with the
// console's own Vite config when no build is there yet (`pnpm start` and `turbo build` make one).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console package's directory, resolved as the gateway resolves it. */
export const CONSOLE_DIR = dirname(
  fileURLToPath(import.meta.resolve('@modelgate/console/package.json')),
);

/** Builds apps/console into its dist/ unless a build is there; returns dist/. */
export function ensureConsoleBuilt(): string {
  const dist = join(CONSOLE_DIR, 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    execFileSync(process.execPath, [join(CONSOLE_DIR, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: CONSOLE_DIR,
      stdio: 'inherit',
    });
  }
  return dist;
}

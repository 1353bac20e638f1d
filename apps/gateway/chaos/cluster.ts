/**
 * The chaos run's cluster: a fresh PostgreSQL database on the machine's server (reached through a
 * proxy the run controls), a unique Redis key prefix (through another proxy), and N gateway child
 * processes of the built main.js, each with its own data directory, kill-able and restartable on it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type ChildGateway, freePort, startChildGateway } from '../test/support/child-gateway.js';

export interface PostgresTarget {
  /** postgres://… of the fresh database on the real server. */
  directUrl: string;
  name: string;
  /** Terminates every backend connected to the fresh database (what a server restart does). */
  terminateBackends(): Promise<number>;
  drop(): Promise<void>;
}

async function adminQuery<T extends pg.QueryResultRow>(
  baseUrl: string,
  text: string,
): Promise<T[]> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

export async function createPostgresTarget(baseUrl: string): Promise<PostgresTarget> {
  const name = `mg_chaos_${randomBytes(5).toString('hex')}`;
  await adminQuery(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    directUrl: url.toString(),
    name,
    async terminateBackends() {
      const rows = await adminQuery<{ n: string }>(
        baseUrl,
        `select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    drop: async () => {
      await adminQuery(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

export interface Instance {
  index: number;
  url: string;
  cdnUrl: string;
  /** Bumped on every kill: a request that started under another generation died with it. */
  generation: number;
  up: boolean;
  child: ChildGateway | null;
}

export interface Cluster {
  instances: Instance[];
  dataDirs: string[];
  /** SIGKILL then restart on the same data directory and ports. */
  killAndRestart(index: number): Promise<void>;
  /** SIGTERM every instance; resolves with their exit codes. */
  stopAll(): Promise<(number | null)[]>;
  /** Output of every instance, for a failure report. */
  output(): string;
  /** `msg` of every error-level log line any instance (any incarnation) wrote, with counts. */
  errorLogs(): Record<string, number>;
  cleanup(): Promise<void>;
}

export async function startCluster(options: {
  main: string;
  size: number;
  env: Record<string, string>;
  configYaml: string;
}): Promise<Cluster> {
  const root = await mkdtemp(join(tmpdir(), 'mg-chaos-'));
  const configPath = join(root, 'modelgate.yaml');
  await writeFile(configPath, options.configYaml);
  const dataDirs: string[] = [];
  const envs: Record<string, string>[] = [];
  const instances: Instance[] = [];
  const logs: string[][] = [];
  /** Output of every process started, killed ones included. */
  const allOutputs: string[][] = [];
  for (let index = 0; index < options.size; index++) {
    const dataDir = join(root, `instance-${index}`);
    const port = await freePort();
    const cdnPort = await freePort();
    dataDirs.push(dataDir);
    envs.push({
      ...options.env,
      PORT: String(port),
      CDN_PORT: String(cdnPort),
      MODELGATE_DATA_DIR: dataDir,
      MODELGATE_CONFIG: configPath,
    });
    instances.push({
      index,
      url: `http://127.0.0.1:${port}`,
      cdnUrl: `http://127.0.0.1:${cdnPort}`,
      generation: 0,
      up: false,
      child: null,
    });
    logs.push([]);
  }
  const start = async (instance: Instance) => {
    instance.child = await startChildGateway(options.main, envs[instance.index]!);
    logs[instance.index] = instance.child.output;
    allOutputs.push(instance.child.output);
    instance.up = true;
  };
  // The first instance migrates the database; the others start once it has.
  await start(instances[0]!);
  await Promise.all(instances.slice(1).map(start));

  return {
    instances,
    dataDirs,
    async killAndRestart(index) {
      const instance = instances[index]!;
      instance.up = false;
      instance.generation++;
      instance.child?.process.kill('SIGKILL');
      await instance.child?.exited;
      await start(instance);
    },
    async stopAll() {
      return Promise.all(
        instances.map(async (instance) => {
          instance.up = false;
          if (!instance.child) return null;
          instance.child.process.kill('SIGTERM');
          const { code } = await instance.child.exited;
          instance.child = null;
          return code;
        }),
      );
    },
    output: () =>
      logs.map((lines, i) => `--- instance ${i} ---\n${lines.join('').slice(-4000)}`).join('\n'),
    errorLogs() {
      const counts: Record<string, number> = {};
      for (const line of allOutputs.flatMap((chunks) => chunks.join('').split('\n'))) {
        if (!line.includes('"level":"error"')) continue;
        const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120);
        counts[msg] = (counts[msg] ?? 0) + 1;
      }
      return counts;
    },
    async cleanup() {
      for (const instance of instances) instance.child?.process.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    },
  };
}

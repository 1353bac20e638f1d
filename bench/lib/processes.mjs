// Child processes of a bench run: each server in its own process, optionally pinned to a CPU,
// started, waited for, measured (RSS from /proc) and always killed at the end, even on failure.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';

const children = new Set();
let exitHooksInstalled = false;

const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** CPU layout: the server under test gets its own core when there are two or more. */
export function cpuPlan(pin) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  if (!pin || !hasTaskset || cores < 2) return { pinned: false, server: null, other: null, cores };
  const other = cores === 2 ? '0' : `0-${cores - 2}`;
  return { pinned: true, server: String(cores - 1), other, cores };
}

/**
 * Moves this process (all its threads) onto `cpus` — the measuring client of the overhead
 * scenario runs here and must not share the core of the server it measures.
 */
export function pinSelf(cpus) {
  if (!cpus || !hasTaskset) return false;
  return (
    spawnSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' })
      .status === 0
  );
}

/** A free TCP port on 127.0.0.1 (bind to 0, read, close): for servers that take a port number. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  // Last resort: a synchronous SIGKILL of whatever is still running when this process exits.
  process.on('exit', () => {
    for (const child of children) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {}
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      await stopAll();
      process.exit(130);
    });
  }
}

/**
 * Starts `node <args>` (pinned with taskset when `cpu` is given) and waits until it is ready:
 * either a stdout line matches `readyPattern` (its first group is returned as `url`), or
 * `readyUrl` answers 2xx. Output is kept (last 200 lines) for error messages.
 */
export async function startNode({
  name,
  args,
  env = {},
  cpu = null,
  readyPattern,
  readyUrl,
  logFile = null,
  timeoutMs = 60_000,
}) {
  installExitHooks();
  const command = cpu ? 'taskset' : process.execPath;
  const argv = cpu ? ['-c', cpu, process.execPath, ...args] : args;
  // A chatty server logs to a file, so reading its lines costs the measuring process nothing.
  const fd = logFile ? openSync(logFile, 'a') : null;
  // An env value of undefined removes that variable (e.g. DATABASE_URL, to get PGlite).
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(childEnv))
    if (value === undefined) delete childEnv[key];
  const child = spawn(command, argv, {
    env: childEnv,
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
  });
  if (fd != null) closeSync(fd);
  const log = [];
  const handle = { name, child, pid: child.pid, log, url: null, exited: false };
  children.add(handle);
  child.on('exit', (code, signal) => {
    handle.exited = true;
    handle.exitCode = code ?? signal;
    children.delete(handle);
  });

  let resolveReady;
  const readyFromLine = new Promise((resolve) => {
    resolveReady = resolve;
  });
  const onData = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      if (log.length >= 200) log.shift();
      log.push(line);
      if (readyPattern && !handle.url) {
        const match = readyPattern.exec(line);
        if (match) resolveReady(match[1]);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  const deadline = Date.now() + timeoutMs;
  const failure = () => {
    const tail = logFile ? readFileSync(logFile, 'utf8').split('\n').slice(-30) : log.slice(-30);
    return new Error(
      `${name} did not become ready (exit ${handle.exitCode ?? 'none'}):\n${tail.join('\n')}`,
    );
  };

  if (readyPattern) {
    let timeout;
    const timer = new Promise((resolve) => {
      timeout = setTimeout(resolve, timeoutMs, null);
    });
    const exited = new Promise((resolve) => child.once('exit', () => resolve(null)));
    handle.url = await Promise.race([readyFromLine, timer, exited]);
    clearTimeout(timeout);
    if (!handle.url) {
      await stop(handle);
      throw failure();
    }
  } else {
    handle.url = readyUrl.origin ?? new URL(readyUrl).origin;
    while (true) {
      if (handle.exited || Date.now() > deadline) {
        await stop(handle);
        throw failure();
      }
      try {
        const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return handle;
}

/** Resident set size of a process in bytes, from /proc (null when it is gone). */
export function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time a process has used so far (user + system, all threads) in milliseconds, from
 * /proc/PID/stat; null when it is gone. Clock ticks are taken as 100 per second (Linux's USER_HZ).
 */
export function cpuTimeOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until `stop()`; reports the peak and the samples. */
export function sampleRss(pid, intervalMs = 200) {
  const samples = [];
  const timer = setInterval(() => {
    const rss = rssOf(pid);
    if (rss != null && samples.length < 100_000) samples.push(rss);
  }, intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      const last = rssOf(pid);
      if (last != null) samples.push(last);
      return { peak: samples.length ? Math.max(...samples) : null, last, samples: samples.length };
    },
  };
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(handle, graceMs = 3_000) {
  if (!handle || handle.exited) return;
  const exited = new Promise((resolve) => handle.child.once('exit', resolve));
  try {
    handle.child.kill('SIGTERM');
  } catch {}
  const timer = setTimeout(() => {
    try {
      handle.child.kill('SIGKILL');
    } catch {}
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll() {
  await Promise.all([...children].map((handle) => stop(handle)));
}

/**
 * Runs a worker script to completion in its own process (the load generator is never in a
 * server's process) and returns the JSON it prints as its last stdout line. Messages it sends
 * over IPC go to `onMessage`; it is killed after `timeoutMs`.
 */
export function runWorker({ name, args, cpu = null, timeoutMs, onMessage }) {
  installExitHooks();
  return new Promise((resolve, reject) => {
    const command = cpu ? 'taskset' : process.execPath;
    const argv = cpu ? ['-c', cpu, process.execPath, ...args] : args;
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const handle = { name, child, pid: child.pid, exited: false };
    children.add(handle);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.length > 8_000_000) out = out.slice(-4_000_000);
    });
    child.stderr.on('data', (chunk) => {
      err = (err + chunk).slice(-20_000);
    });
    if (onMessage) child.on('message', onMessage);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      handle.exited = true;
      children.delete(handle);
      const lines = out.trim().split('\n');
      try {
        if (code !== 0) throw new Error(`exit ${code ?? signal}`);
        resolve(JSON.parse(lines[lines.length - 1]));
      } catch (error) {
        reject(new Error(`${name} failed (${error.message}):\n${err.slice(-4000)}`));
      }
    });
  });
}

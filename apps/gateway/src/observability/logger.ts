/**
 * Structured JSON logs: one line per event on stdout, cheap enough for the hot path. Lines written to
 * stdout are gathered and written together at most every 20 ms (or at 64 KiB): stdout to a pipe or
 * file is a synchronous syscall in Node, one per line would cost one per request. Whatever is
 * buffered is written synchronously when the process exits.
 */
import { writeSync } from 'node:fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line, e.g. `log.child({ component: 'video' })`. */
  child(fields: LogFields): Logger;
  isLevelEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stdout by default. Tests pass an array collector. */
  write?: (line: string) => void;
  base?: LogFields;
}

let pending = '';
let scheduled = false;
let exitHookInstalled = false;
/** stdout's reader went away (EPIPE): drop lines rather than fail (and log the failure) forever. */
let stdoutGone = false;

function flushStdout(): void {
  scheduled = false;
  if (stdoutGone) pending = '';
  if (pending === '') return;
  const out = pending;
  pending = '';
  process.stdout.write(out);
}

/** Writes whatever is buffered now, synchronously (process exit, fatal errors). */
export function flushLogsSync(): void {
  if (stdoutGone) pending = '';
  if (pending === '') return;
  const out = pending;
  pending = '';
  try {
    writeSync(1, out);
  } catch {
    // stdout closed: nothing left to tell
  }
}

const FLUSH_INTERVAL_MS = 20;

/** The default sink: buffered stdout. */
function bufferedStdout(line: string): void {
  pending += `${line}\n`;
  if (stdoutGone) return;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', flushLogsSync);
    // Without a listener, a write to a closed pipe is an uncaught exception, whose handler logs
    // it, which writes again: a busy loop (seen when a supervisor's log reader died).
    process.stdout.on('error', () => {
      stdoutGone = true;
    });
  }
  if (pending.length > 64 * 1024) flushStdout();
  else if (!scheduled) {
    scheduled = true;
    setTimeout(flushStdout, FLUSH_INTERVAL_MS).unref();
  }
}

/**
 * Create a JSON line logger.
 *
 * @example
 * const log = createLogger({ level: 'info' });
 * log.info('listening', { url: 'http://127.0.0.1:8080' });
 * // {"time":"2026-…","level":"info","msg":"listening","url":"http://127.0.0.1:8080"}
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const min = LEVEL_RANK[options.level ?? 'info'];
  const write = options.write ?? bufferedStdout;
  const base = options.base ?? {};

  const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LEVEL_RANK[level] < min) return;
    const record: LogFields = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    const err = record.err;
    if (err instanceof Error)
      record.err = { name: err.name, message: err.message, stack: err.stack };
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ time: record.time, level, msg, note: 'fields not serializable' });
    }
    write(line);
  };

  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ ...options, base: { ...base, ...fields } }),
    isLevelEnabled: (level) => LEVEL_RANK[level] >= min,
  };
}

export function parseLogLevel(value: string | undefined): LogLevel {
  const v = (value ?? 'info').toLowerCase();
  if (v === 'debug' || v === 'info' || v === 'warn' || v === 'error') return v;
  if (v === 'warning') return 'warn';
  if (v === 'silent' || v === 'fatal') return 'error';
  throw new Error(`LOG_LEVEL must be one of debug, info, warn, error (got "${value}")`);
}

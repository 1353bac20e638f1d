// The streams a one-shot command reads and writes: process.* in the binary, PassThroughs in tests.
import { createInterface } from 'node:readline';
import { describeError, formatError } from '../errors.js';

export interface CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Aborted on Ctrl+C (SIGINT): a running stream stops and the command exits 130. */
  signal?: AbortSignal | undefined;
}

/** Exit codes of the `modelgate` binary. */
export const ExitCode = {
  ok: 0,
  /** The gateway (or the connection to it) failed: the error is on stderr. */
  failed: 1,
  /** Bad flags or arguments: the usage text is on stderr. */
  usage: 2,
  /** A video task ended `failed` or `cancelled` (`video --wait`). */
  taskFailed: 3,
  /** The config file is unreadable or malformed, or could not be written. */
  config: 4,
  /** Interrupted with Ctrl+C. */
  interrupted: 130,
} as const;

/** Reads a whole stream as UTF-8 (the prompt of `modelgate chat -`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** Writes `question` to stderr and resolves with the next line typed (`''` at end of input). */
export function ask(io: CommandIO, question: string): Promise<string> {
  io.stderr.write(question);
  const lines = createInterface({ input: io.stdin, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    const finish = (line: string) => {
      if (answered) return;
      answered = true;
      lines.close();
      resolve(line.trim());
    };
    lines.once('line', finish);
    lines.once('close', () => finish(''));
  });
}

/** Prints a failure as `modelgate: <status> <code>: <message>` and returns exit code 1. */
export function reportFailure(io: CommandIO, error: unknown): number {
  io.stderr.write(`modelgate: ${formatError(describeError(error))}\n`);
  return ExitCode.failed;
}

/**
 * Writes what `produce` resolves with as stdout's one answer, or the failure on stderr (exit 1).
 *
 * @example
 * ```ts
 * return printResult(io, async () => formatBalance(await client.billing.creditGrants()));
 * ```
 */
export async function printResult(io: CommandIO, produce: () => Promise<string>): Promise<number> {
  try {
    io.stdout.write(`${await produce()}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(io, error);
  }
}

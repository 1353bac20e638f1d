// The streams a one-shot command reads and writes: process.* in the binary, PassThroughs in tests.

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

// Reading what Ink drew: frames without colors, and waiting (bounded) until one matches.

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** The frame as plain text. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '');
}

/** The frame's words on one line: undoes Ink's wrapping so a long answer can be searched for. */
export function flat(frame: string | undefined): string {
  return plain(frame)
    .replace(/[│╭╮╰╯─▍]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Polls every 20 ms until `check(frame)` holds; fails with the last frame after `timeoutMs`. */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  check: (frame: string) => boolean,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = plain(lastFrame());
    if (check(frame)) return frame;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for the frame; last frame:\n${frame}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls `check` every 50 ms until it resolves true; rejects after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

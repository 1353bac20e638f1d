// The chat screen in the real terminal (loaded on demand by main.ts).
import type { ModelgateClient } from '@modelgate/core';
import { render } from 'ink';
import type { ChatApi } from './args.js';
import { ExitCode } from './commands/io.js';
import type { CliConfig } from './config.js';
import { App } from './ui/App.js';

/** Draws the chat screen until /exit, Ctrl+D or a second Ctrl+C; resolves with the exit code. */
export async function runInteractive(
  config: CliConfig,
  client: ModelgateClient,
  /** Aborted on SIGINT from outside (`kill -INT`): the screen closes, exit code 130. */
  signal?: AbortSignal,
  /** The API the answers come from (`--api`). */
  api: ChatApi = 'chat',
): Promise<number> {
  // Ctrl+C is ours: the first stops an answer, the second exits.
  const instance = render(<App config={config} client={client} api={api} />, {
    exitOnCtrlC: false,
  });
  const onAbort = () => instance.unmount();
  signal?.addEventListener('abort', onAbort, { once: true });
  await instance.waitUntilExit();
  signal?.removeEventListener('abort', onAbort);
  return signal?.aborted ? ExitCode.interrupted : ExitCode.ok;
}

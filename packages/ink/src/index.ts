// `@modelgate/ink`: the modelgate terminal UI as a library (the `modelgate` binary is dist/cli.js).
export { type Command, type ParsedArgs, parseCliArgs, USAGE, type UsageError } from './args.js';
export { runBalanceCommand, runModelsCommand } from './commands/account.js';
export { runChatCommand } from './commands/chat.js';
export { type CommandIO, ExitCode } from './commands/io.js';
export {
  type CliConfig,
  type ConfigFlags,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  loadConfig,
} from './config.js';
export { describeError, type ErrorInfo, formatError } from './errors.js';
export { createTokenBatcher, type TokenBatcher } from './token-batcher.js';
export { App, type AppProps } from './ui/App.js';
export { PromptInput, type PromptInputProps } from './ui/PromptInput.js';
export { isFinished, type WatchOptions, watchVideoTask } from './video.js';

// `@modelgate/ink`: the modelgate terminal UI as a library (the `modelgate` binary is dist/cli.js).
export { type Command, type ParsedArgs, parseCliArgs, USAGE, type UsageError } from './args.js';
export { userMessage } from './chat-content.js';
export { runBalanceCommand, runModelsCommand } from './commands/account.js';
export { type AuditCommandInput, formatAuditEntry, runAuditCommand } from './commands/audit.js';
export { type ChatCommandInput, runChatCommand } from './commands/chat.js';
export {
  type EmbedCommandInput,
  NoEmbeddingModelError,
  runEmbedCommand,
} from './commands/embed.js';
export { type ImageCommandInput, runImageCommand } from './commands/image.js';
export { type CommandIO, ExitCode } from './commands/io.js';
export { type KeysCommandInput, runKeysCommand } from './commands/keys.js';
export { runTokenCreateCommand, type TokenCommandInput } from './commands/token.js';
export { runUploadCommand } from './commands/upload.js';
export { runUsageCommand, type UsageCommandInput } from './commands/usage.js';
export {
  runVideoCancelCommand,
  runVideoCommand,
  runVideoListCommand,
  runVideoStatusCommand,
  type VideoCommandInput,
} from './commands/video.js';
export {
  type CliConfig,
  type ConfigFlags,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  loadConfig,
  selectProfile,
} from './config.js';
export {
  type ConfigFile,
  configFilePath,
  PROFILE_KEYS,
  type Profile,
  type ProfileKey,
  readConfigFile,
} from './config-file.js';
export type { EmbedCommand } from './embed-args.js';
export { describeError, type ErrorInfo, formatError } from './errors.js';
export type { ImageCommand } from './image-args.js';
export {
  editImages,
  firstImageModel,
  type GeneratedImages,
  generateImages,
  type ImageInputs,
  type ImageRequest,
  imageUrls,
  NoImageModelError,
} from './image-generation.js';
export type { KeysCommand } from './keys-args.js';
export { App, type AppProps } from './ui/App.js';
export { ModelPicker, type ModelPickerProps } from './ui/ModelPicker.js';
export { PromptInput, type PromptInputProps } from './ui/PromptInput.js';
export { type UploadOptions, uploadImage } from './upload.js';
export type { UsageCommand } from './usage-args.js';

// `@modelgate/react`: React hooks over @modelgate/stream's chat session and video task watcher, and
// useLoad for any one request a component shows.
export {
  type ChatFinishDetails,
  type ChatRequestExtras,
  type ChatStatus,
  createWebStorageChatStore,
  getMessageText,
  isFinalStatus,
  type MessageInput,
  type MessagesRequestExtras,
  type TurnEnd,
  type TurnOptions,
} from '@modelgate/stream';
export type { ClientSource } from './client.js';
export { type UIMessage, type UseChatOptions, type UseChatResult, useChat } from './use-chat.js';
export { type Loader, type LoadState, useLoad } from './use-load.js';
export {
  type UseVideoTaskOptions,
  type UseVideoTaskResult,
  useVideoTask,
} from './use-video-task.js';

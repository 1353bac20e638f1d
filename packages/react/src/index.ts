// `@modelgate/react`: React hooks over the modelgate client — streaming chat and video tasks.
export type { ClientSource } from './client.js';
export { getMessageText, type MessageInput, type UIMessage } from './messages.js';
export { isFinalStatus } from './poll-video-task.js';
export {
  type ChatFinishDetails,
  type ChatRequestExtras,
  type ChatRequestOptions,
  type ChatStatus,
  type UseChatOptions,
  type UseChatResult,
  useChat,
} from './use-chat.js';
export {
  type UseVideoTaskOptions,
  type UseVideoTaskResult,
  useVideoTask,
} from './use-video-task.js';

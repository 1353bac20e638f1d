// `@modelgate/stream`: modelgate's server-sent event streams as typed async iterables.
export {
  ChatCompletionStream,
  type ChatStreamRequest,
  type StreamedChatCompletion,
  streamChatCompletion,
} from './chat.js';
export { CompletionStream, type CompletionStreamRequest, streamCompletion } from './completion.js';
export { ModelgateStream, type OpenStream, type StreamOptions } from './event-stream.js';
export { MessageStream, type MessageStreamRequest, streamMessage } from './message.js';
export { ResponseStream, type ResponseStreamRequest, streamResponse } from './responses.js';
export {
  type BatchedChatView,
  type ChatStateSource,
  createBatchedView,
  createIntervalBatcher,
  type RenderBatcher,
  type RenderBatcherFactory,
} from './session/batched-view.js';
export {
  type ChatFinishDetails,
  ChatSession,
  type ChatSessionOptions,
  type ChatSessionSettings,
  type TokenPrice,
  type TurnOptions,
} from './session/chat-session.js';
export {
  createMessageId,
  getMessageText,
  type MessageInput,
  type MessagesConversation,
  type SessionMessage,
  toChatMessages,
  toMessagesConversation,
  toSessionMessage,
} from './session/messages.js';
export { toResponseInput } from './session/response-items.js';
export {
  type ChatSessionState,
  type ChatStateStore,
  type ChatStatus,
  createMemoryChatStore,
  createWebStorageChatStore,
  initialChatState,
  type TurnEnd,
} from './session/state.js';
export {
  type ChatFormat,
  type ChatRequestExtras,
  DEFAULT_MESSAGES_MAX_TOKENS,
  type MessagesRequestExtras,
} from './session/turn.js';
export {
  type ChatFormatOption,
  chatFormatOf,
  type ResponsesRequestExtras,
} from './session/turn-request.js';
export { readSseEvents, type SseEvent, SseParser, type SseParserCallbacks } from './sse.js';
export {
  isFinalStatus,
  type VideoTaskEvent,
  type WaitForVideoTaskOptions,
  type WatchVideoTaskOptions,
  waitForVideoTask,
  watchVideoTask,
} from './video-task.js';

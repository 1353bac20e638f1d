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
export { readSseEvents, type SseEvent, SseParser, type SseParserCallbacks } from './sse.js';

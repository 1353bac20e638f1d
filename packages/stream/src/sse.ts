// The SSE parser lives in `@modelgate/core/sse` so the gateway shares it without depending on this
// package; re-exported here so `@modelgate/stream`'s public API stays as it was.
export {
  readSseEvents,
  type SseEvent,
  SseParser,
  type SseParserCallbacks,
} from '@modelgate/core/sse';

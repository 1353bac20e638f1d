// `@modelgate/core/zod`: the generated zod schemas, e.g. `zCreateChatCompletionRequest`.
// The gateway validates requests with these; clients rarely need them directly.
export * from './generated/zod.gen.js';

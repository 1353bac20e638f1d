/**
 * A text request as the path carries it: the client's validated body, tagged with the API it
 * arrived on. The bodies are the spec's generated types, so every stage that switches on
 * `format` reads the right fields without a cast or a `typeof` re-check.
 */
import type { CreateResponseRequest } from '@modelgate/core';
import type { ChatRequest, CompletionRequest, MessagesRequest } from '../translate/wire.js';

export type TextRequest =
  | { readonly format: 'chat'; readonly body: ChatRequest }
  | { readonly format: 'completion'; readonly body: CompletionRequest }
  | {
      readonly format: 'messages';
      readonly body: MessagesRequest;
      /** The client's `anthropic-beta` flags, forwarded to a messages-format upstream. */
      readonly betas?: readonly string[];
    }
  | {
      /**
       * A Responses API body for OpenAI upstreams' own `/v1/responses`, with `pivot`, the same
       * request in the chat format, for the stages that estimate and reserve (tokens, images).
       */
      readonly format: 'responses';
      readonly body: CreateResponseRequest;
      readonly pivot: ChatRequest;
    };

/** The API surface a request arrived on. */
export type ClientFormat = TextRequest['format'];

/** The client asked for a server-sent event stream. */
export function isStreaming(request: TextRequest): boolean {
  return request.body.stream === true;
}

/**
 * The client asked for a usage chunk at the end of an OpenAI-format stream (the messages and
 * responses formats always report usage in their events).
 *
 * @example
 * wantsStreamUsage({ format: 'chat', body: { model, messages, stream_options: { include_usage: true } } }); // true
 */
export function wantsStreamUsage(request: TextRequest): boolean {
  if (request.format === 'messages' || request.format === 'responses') return false;
  return request.body.stream_options?.include_usage === true;
}

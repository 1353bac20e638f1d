/**
 * For each (client format × upstream kind) pair: the upstream operation, the upstream body, how
 * a non-streaming response comes back, and which stream transform carries the events. Same-format
 * pairs pass through; the rest are translated (src/translate/).
 */
import type { ResponseUsage as ResponsesApiUsage } from '@modelgate/core';
import type { TextDeployment, TextModel } from '../models/catalog.js';
import { type TextOperation, UpstreamError } from '../providers/text/types.js';
import { AnthropicToOpenAiStream } from '../translate/anthropic-to-openai-stream.js';
import { droppedBlocks } from '../translate/content-blocks.js';
import {
  CHAT_TO_MESSAGES,
  COMPLETION_TO_MESSAGES,
  droppedFields,
  MESSAGES_TO_CHAT,
} from '../translate/dropped.js';
import {
  type OpenAiStreamItem,
  OpenAiToAnthropicStream,
} from '../translate/openai-to-anthropic-stream.js';
import { AnthropicPassthroughStream, OpenAiPassthroughStream } from '../translate/passthrough.js';
import { applyThinking, chatReasoningOf } from '../translate/reasoning.js';
import {
  anthropicToChatRequest,
  chatToAnthropicRequest,
  completionToChatRequest,
} from '../translate/request.js';
import {
  anthropicMessageFromChat,
  chatCompletionFromAnthropic,
  textCompletionFromAnthropic,
} from '../translate/response.js';
import {
  AnswerToolStream,
  answerToolAsText,
  responseFormatPlan,
} from '../translate/response-format.js';
import { ResponsesPassthroughStream } from '../translate/responses/passthrough.js';
import type { SseEvent } from '../translate/sse.js';
import type { StreamMeter } from '../translate/stream-base.js';
import {
  type TokenUsage,
  usageFromAnthropic,
  usageFromOpenAi,
  usageFromResponses,
} from '../translate/usage.js';
import type {
  AnthropicMessage,
  AnthropicStreamEvent,
  MessagesRequest,
  OpenAiChatCompletion,
  OpenAiUsage,
} from '../translate/wire.js';
import { type TextRequest, wantsStreamUsage } from './request.js';

/** Usage as read from a complete non-streaming upstream response, split as the provider bills it. */
export type ResponseUsage = TokenUsage;

export interface UpstreamPlan {
  operation: TextOperation;
  body: unknown;
  /** True when upstream speaks the client's format and responses are forwarded as they are. */
  passthrough: boolean;
  /** Request fields the translation could not carry over (empty when passing through). */
  dropped: string[];
  /** Turns the upstream's parsed JSON response into the client's response body. */
  respond(upstream: unknown): { body: unknown; usage: ResponseUsage | null };
  /** A fresh transform for a streamed response. */
  stream(estimatedInputTokens: number): StreamPipe;
}

/** One stream transform behind a uniform SSE-event interface. */
export interface StreamPipe extends StreamMeter {
  feed(event: SseEvent): string[];
  end(): string[];
  fail(type: string, message: string): string[];
}

function withStreamUsage<T extends { stream?: boolean | null; stream_options?: unknown }>(
  body: T,
): T {
  if (!body.stream) {
    // OpenAI refuses stream_options without stream; the spec lets clients send it anyway.
    if (body.stream_options === undefined) return body;
    const { stream_options: _ignored, ...rest } = body;
    return rest as T;
  }
  // Always ask for usage so streams can be billed exactly (the client's wish is honoured later).
  const options = (body.stream_options ?? {}) as Record<string, unknown>;
  return { ...body, stream_options: { ...options, include_usage: true } };
}

function openAiUsage(body: unknown): ResponseUsage | null {
  const usage = (body as { usage?: Partial<OpenAiUsage> | null }).usage;
  return usage ? usageFromOpenAi(usage) : null;
}

function anthropicUsage(body: unknown): ResponseUsage | null {
  const usage = (body as AnthropicMessage).usage;
  return usage ? usageFromAnthropic(usage) : null;
}

/** No usage when the answer reports no input count: the answer's text is counted instead. */
function responsesApiUsage(body: unknown): ResponseUsage | null {
  const usage = (body as { usage?: Partial<ResponsesApiUsage> | null }).usage;
  return usage?.input_tokens == null ? null : usageFromResponses(usage);
}

function parseJson<T>(data: string): T | null {
  try {
    return JSON.parse(data) as T;
  } catch {
    return null;
  }
}

function pipe<In>(
  transform: {
    push(event: In): string[];
    end(): string[];
    fail(type: string, message: string): string[];
  } & StreamMeter,
  read: (event: SseEvent) => In | null,
): StreamPipe {
  return {
    get usage() {
      return transform.usage;
    },
    get producedText() {
      return transform.producedText;
    },
    get completed() {
      return transform.completed;
    },
    feed(event) {
      const item = read(event);
      return item === null ? [] : transform.push(item);
    },
    end: () => transform.end(),
    fail: (type, message) => transform.fail(type, message),
  };
}

const readOpenAi = (event: SseEvent): OpenAiStreamItem | null =>
  event.data === '[DONE]' ? 'done' : parseJson<OpenAiStreamItem>(event.data);
const readAnthropic = (event: SseEvent): AnthropicStreamEvent | null =>
  parseJson<AnthropicStreamEvent>(event.data);

/**
 * Plans the upstream call for a validated client request on one deployment.
 *
 * @example
 * const plan = planUpstream({ format: 'messages', body }, deployment, model);
 * await deployment.provider.send({ operation: plan.operation, body: plan.body });
 */
export function planUpstream(
  request: TextRequest,
  deployment: TextDeployment,
  model: TextModel,
): UpstreamPlan {
  const upstreamModel = deployment.upstreamModel;
  if (request.format === 'responses') return responsesPlan(request, deployment);
  const includeUsage = wantsStreamUsage(request);
  if (deployment.provider.kind === 'openai') {
    if (request.format === 'messages') return messagesToChatPlan(request.body, upstreamModel);
    const format = request.format;
    return {
      operation: format === 'chat' ? 'chat' : 'completions',
      body: withStreamUsage({ ...request.body, model: upstreamModel }),
      passthrough: true,
      dropped: [],
      respond: (upstream) => ({ body: upstream, usage: openAiUsage(upstream) }),
      stream: () => pipe(new OpenAiPassthroughStream({ includeUsage, format }), (event) => event),
    };
  }
  if (request.format === 'messages') {
    return {
      operation: 'messages',
      body: { ...request.body, model: upstreamModel },
      passthrough: true,
      dropped: [],
      respond: (upstream) => ({ body: upstream, usage: anthropicUsage(upstream) }),
      stream: () => pipe(new AnthropicPassthroughStream(), (event) => event),
    };
  }
  return chatToMessagesPlan(request, model, upstreamModel, includeUsage);
}

/** The least a Responses API answer has: an `output` list (the gateway reads it to keep state). */
function isResponseObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { output?: unknown }).output)
  );
}

/**
 * A responses request on OpenAI's own `/v1/responses`, passed through. The responses service
 * sends this format only for a model whose every deployment is OpenAI's (any other goes through
 * the chat pivot), so another upstream here is a bug, not a client error.
 */
function responsesPlan(
  request: Extract<TextRequest, { format: 'responses' }>,
  deployment: TextDeployment,
): UpstreamPlan {
  if (deployment.provider.kind !== 'openai') {
    throw new Error(`a responses request reached the ${deployment.provider.kind} upstream`);
  }
  return {
    operation: 'responses',
    body: { ...request.body, model: deployment.upstreamModel },
    passthrough: true,
    dropped: [],
    respond: (upstream) => {
      if (!isResponseObject(upstream)) {
        throw new UpstreamError('status', 'Upstream sent an answer that is not a response.', 502);
      }
      return { body: upstream, usage: responsesApiUsage(upstream) };
    },
    stream: () => pipe(new ResponsesPassthroughStream(), (event) => event),
  };
}

/** A messages request on an OpenAI-format upstream. */
function messagesToChatPlan(body: MessagesRequest, upstreamModel: string): UpstreamPlan {
  return {
    operation: 'chat',
    body: anthropicToChatRequest(body, upstreamModel),
    passthrough: false,
    dropped: [
      ...droppedFields(body, MESSAGES_TO_CHAT),
      ...chatReasoningOf(body).dropped,
      ...droppedBlocks(body.messages),
    ],
    // Billed from the upstream's own usage, not the translated copy.
    respond: (upstream) => ({
      body: anthropicMessageFromChat(upstream as OpenAiChatCompletion),
      usage: openAiUsage(upstream),
    }),
    stream: (estimatedInputTokens) =>
      pipe(new OpenAiToAnthropicStream({ estimatedInputTokens }), readOpenAi),
  };
}

/** A chat or legacy completion request on a messages-format upstream. */
function chatToMessagesPlan(
  request: Exclude<TextRequest, { format: 'messages' | 'responses' }>,
  model: TextModel,
  upstreamModel: string,
  includeUsage: boolean,
): UpstreamPlan {
  const format = request.format;
  const chat = format === 'chat' ? request.body : completionToChatRequest(request.body);
  // A response_format asked for with a forced tool: that tool's input is the answer's text.
  const formatPlan = responseFormatPlan(chat);
  const answerTool = formatPlan && 'tool' in formatPlan ? formatPlan.tool.name : null;
  const fromUpstream = (message: AnthropicMessage) =>
    answerTool === null ? message : answerToolAsText(message, answerTool);
  const readEvent = (): ((event: SseEvent) => AnthropicStreamEvent | null) => {
    if (answerTool === null) return readAnthropic;
    const rewrite = new AnswerToolStream(answerTool);
    return (event) => {
      const parsed = readAnthropic(event);
      return parsed && rewrite.event(parsed);
    };
  };
  const body = chatToAnthropicRequest(chat, {
    upstreamModel,
    defaultMaxTokens: model.maxOutputTokens,
  });
  const reasoningDropped = applyThinking(chat, body);
  return {
    operation: 'messages',
    body,
    passthrough: false,
    dropped: [
      ...droppedFields(request.body, format === 'chat' ? CHAT_TO_MESSAGES : COMPLETION_TO_MESSAGES),
      ...reasoningDropped,
    ],
    respond: (upstream) => {
      const message = fromUpstream(upstream as AnthropicMessage);
      const body =
        format === 'chat'
          ? chatCompletionFromAnthropic(message)
          : textCompletionFromAnthropic(message);
      return { body, usage: anthropicUsage(message) };
    },
    stream: () => pipe(new AnthropicToOpenAiStream({ includeUsage, format }), readEvent()),
  };
}

/**
 * For each (client format × upstream kind) pair: the upstream operation, the upstream body, how
 * a non-streaming response comes back, and which stream transform carries the events. Same-format
 * pairs pass through; the rest are translated (src/translate/).
 */
import type { TextDeployment, TextModel } from '../models/catalog.js';
import type { TextOperation } from '../providers/text/types.js';
import {
  CHAT_TO_MESSAGES,
  COMPLETION_TO_MESSAGES,
  droppedFields,
  MESSAGES_TO_CHAT,
} from '../translate/dropped.js';
import { AnthropicPassthroughStream, OpenAiPassthroughStream } from '../translate/passthrough.js';
import {
  anthropicToChatRequest,
  chatToAnthropicRequest,
  checkChatMessages,
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
import type { SseEvent } from '../translate/sse.js';
import {
  AnthropicToOpenAiStream,
  type OpenAiStreamItem,
  OpenAiToAnthropicStream,
  type StreamMeter,
} from '../translate/stream.js';
import type {
  AnthropicMessage,
  AnthropicRequest,
  AnthropicStreamEvent,
  OpenAiChatCompletion,
  OpenAiChatRequest,
  OpenAiCompletionRequest,
} from '../translate/wire.js';

/** The API surface a request arrived on. */
export type ClientFormat = 'chat' | 'completion' | 'messages';

/** Usage as read from a complete non-streaming upstream response. */
export interface ResponseUsage {
  inputTokens: number;
  outputTokens: number;
}

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
  const usage = (body as { usage?: { prompt_tokens?: number; completion_tokens?: number } }).usage;
  if (!usage) return null;
  return { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
}

function anthropicUsage(body: unknown): ResponseUsage | null {
  const usage = (body as AnthropicMessage).usage;
  if (!usage) return null;
  return {
    inputTokens:
      (usage.input_tokens ?? 0) +
      (usage.cache_creation_input_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0),
    outputTokens: usage.output_tokens ?? 0,
  };
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
 * const plan = planUpstream('messages', body, deployment, model, { includeUsage: false });
 * await deployment.provider.send({ operation: plan.operation, body: plan.body });
 */
export function planUpstream(
  format: ClientFormat,
  request: Record<string, unknown>,
  deployment: TextDeployment,
  model: TextModel,
  options: { includeUsage: boolean },
): UpstreamPlan {
  const upstreamModel = deployment.upstreamModel;
  const kind = deployment.provider.kind;
  if (kind === 'openai') {
    if (format === 'chat' || format === 'completion') {
      // Same rules as on the translated path, so a bad tool message is our 400 on every model.
      if (format === 'chat') checkChatMessages((request as OpenAiChatRequest).messages);
      const streamFormat = format;
      return {
        operation: format === 'chat' ? 'chat' : 'completions',
        body: withStreamUsage({ ...(request as OpenAiChatRequest), model: upstreamModel }),
        passthrough: true,
        dropped: [],
        respond: (upstream) => ({ body: upstream, usage: openAiUsage(upstream) }),
        stream: () =>
          pipe(
            new OpenAiPassthroughStream({
              includeUsage: options.includeUsage,
              format: streamFormat,
            }),
            (event) => event,
          ),
      };
    }
    return {
      operation: 'chat',
      body: anthropicToChatRequest(request as unknown as AnthropicRequest, upstreamModel),
      passthrough: false,
      dropped: droppedFields(request, MESSAGES_TO_CHAT),
      respond: (upstream) => {
        const message = anthropicMessageFromChat(upstream as OpenAiChatCompletion);
        return { body: message, usage: anthropicUsage(message) };
      },
      stream: (estimatedInputTokens) =>
        pipe(new OpenAiToAnthropicStream({ estimatedInputTokens }), readOpenAi),
    };
  }

  if (format === 'messages') {
    return {
      operation: 'messages',
      body: { ...request, model: upstreamModel },
      passthrough: true,
      dropped: [],
      respond: (upstream) => ({ body: upstream, usage: anthropicUsage(upstream) }),
      stream: () => pipe(new AnthropicPassthroughStream(), (event) => event),
    };
  }
  const chat =
    format === 'chat'
      ? (request as OpenAiChatRequest)
      : completionToChatRequest(request as unknown as OpenAiCompletionRequest);
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
  return {
    operation: 'messages',
    body: chatToAnthropicRequest(chat, { upstreamModel, defaultMaxTokens: model.maxOutputTokens }),
    passthrough: false,
    dropped: droppedFields(request, format === 'chat' ? CHAT_TO_MESSAGES : COMPLETION_TO_MESSAGES),
    respond: (upstream) => {
      const message = fromUpstream(upstream as AnthropicMessage);
      const body =
        format === 'chat'
          ? chatCompletionFromAnthropic(message)
          : textCompletionFromAnthropic(message);
      return { body, usage: anthropicUsage(message) };
    },
    stream: () =>
      pipe(
        new AnthropicToOpenAiStream({
          includeUsage: options.includeUsage,
          format: format === 'chat' ? 'chat' : 'completion',
        }),
        readEvent(),
      ),
  };
}

// A chat conversation outside any UI framework: send, stop, regenerate, tool results, and a state
// object any view can subscribe to (React through useSyncExternalStore, a terminal UI, a test).
import {
  asModelgateError,
  type ChatToolCall,
  type CompletionUsage,
  type FinishReason,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import type { StreamOptions } from '../event-stream.js';
import {
  createMessageId,
  type MessageInput,
  type SessionMessage,
  toSessionMessage,
} from './messages.js';
import {
  type ChatSessionState,
  type ChatStateStore,
  createMemoryChatStore,
  initialChatState,
} from './state.js';
import {
  type ChatFormat,
  type ChatRequestExtras,
  type MessagesRequestExtras,
  streamTurn,
  type TurnProgress,
  type TurnResult,
} from './turn.js';
import {
  type ChatFormatOption,
  chatFormatOf,
  type ResponsesRequestExtras,
} from './turn-request.js';

/** What `onFinish` learns besides the finished message. */
export interface ChatFinishDetails {
  /** Why the model stopped (`stop`, `length`, `tool_calls`, …), or null when the stream did not say. */
  finishReason: FinishReason | null;
  /** Token counts of this turn (chat-format names whichever format ran). */
  usage: CompletionUsage | undefined;
  /** The response's id: `chatcmpl-…`, `msg_…` or `resp_…`. */
  responseId: string | undefined;
  /** The model as the response names it (the gateway may resolve an alias). */
  model: string | undefined;
}

/** Credits per million tokens, to turn usage into `cost` (the gateway's price for the model). */
export interface TokenPrice {
  input: number;
  output: number;
}

/** Settings that may change between turns (see {@link ChatSession.setOptions}). */
export interface ChatSessionSettings {
  /** Where requests go (base URL, key, retries): `@modelgate/core`'s client. */
  client: ModelgateClient;
  /** A text model id from `GET /v1/models`. */
  model: string;
  /** Per-request options: `headers`, `timeoutMs` (until the headers arrive), `maxRetries`. */
  requestOptions?: Omit<StreamOptions, 'signal'> | undefined;
  /** Enables `cost`. */
  pricePerMillionTokens?: TokenPrice | undefined;
  /** Called once per answer that ran to its end (not after `stop()` or an error). */
  onFinish?: ((message: SessionMessage, details: ChatFinishDetails) => void) | undefined;
  /** Called when a turn fails; the same error is in the state's `error`. */
  onError?: ((error: ModelgateError) => void) | undefined;
}

/**
 * Options of a {@link ChatSession}. `format: 'chat'` (the default) talks to
 * `/v1/chat/completions`, `format: 'messages'` to `/v1/messages`, `format: 'responses'` to
 * `/v1/responses`; `body` holds that endpoint's extra fields for every turn.
 */
export type ChatSessionOptions = ChatSessionSettings &
  ChatFormatOption & {
    /** The conversation to start from (ids added where missing); ignored when `store` is given. */
    initialMessages?: readonly MessageInput[] | undefined;
    /** Where the state lives; default in memory. */
    store?: ChatStateStore | undefined;
  };

/** Extra request fields for one turn, in the session's format; they win over the session's `body`. */
export interface TurnOptions {
  body?: ChatRequestExtras | MessagesRequestExtras | ResponsesRequestExtras | undefined;
}

/** A response the gateway stored, and the conversation it ends (the same message objects). */
interface StoredTurn {
  responseId: string;
  messages: readonly SessionMessage[];
}

/**
 * A streaming chat conversation. Each turn sends the whole conversation with `stream: true` and
 * grows the last assistant message as text arrives. One turn at a time: sending again aborts the
 * turn in flight; `stop()` aborts it and keeps the text received so far. Every change replaces the
 * state object and calls the subscribers.
 *
 * @example
 * ```ts
 * import { createClient } from '@modelgate/core';
 * import { ChatSession, getMessageText } from '@modelgate/stream';
 *
 * const session = new ChatSession({ client: createClient({ baseUrl, apiKey }), model: 'gpt-4o-mini' });
 * session.subscribe(() => render(session.getSnapshot()));
 * const answer = await session.send('Count to five');
 * console.log(getMessageText(answer!), session.getSnapshot().usage);
 * ```
 */
export class ChatSession {
  private readonly store: ChatStateStore;
  private readonly listeners = new Set<() => void>();
  private settings: ChatSessionSettings;
  private format: ChatFormat;
  private active: AbortController | undefined;
  /** The latest answer the gateway stored (`/v1/responses` with `store` on). */
  private stored: StoredTurn | undefined;

  constructor(options: ChatSessionOptions) {
    const { store, initialMessages, format: _format, body: _body, ...settings } = options;
    this.settings = settings;
    this.format = chatFormatOf(options);
    this.store =
      store ??
      createMemoryChatStore(initialChatState((initialMessages ?? []).map(toSessionMessage)));
  }

  /** The current state; the same object until something changes. */
  getSnapshot = (): ChatSessionState => this.store.get();

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Changes settings for the next turns (client, model, callbacks, request options, price). */
  setOptions(settings: Partial<ChatSessionSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Switches the endpoint (and its extra fields) for the next turns. */
  setFormat(format: ChatFormat): void {
    this.format = format;
  }

  /**
   * Adds a message (a string is a user message) and streams the answer; without a message, asks
   * for the next answer to the conversation as it is (after {@link addToolResult}). Resolves with
   * the assistant's message, or null when the turn failed, was stopped or was superseded.
   */
  send(message?: MessageInput, turn?: TurnOptions): Promise<SessionMessage | null> {
    const history = this.getSnapshot().messages;
    return this.run(
      message === undefined ? history : [...history, toSessionMessage(message)],
      turn,
    );
  }

  /** Drops everything after the last user message and asks again. Null when there is none. */
  async regenerate(turn?: TurnOptions): Promise<SessionMessage | null> {
    const messages = this.getSnapshot().messages;
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    if (lastUser < 0) return null;
    return this.run(messages.slice(0, lastUser + 1), turn);
  }

  /**
   * Answers a tool call of the latest answer with a `tool` message; call `send()` once every call
   * has its result.
   */
  addToolResult(toolCallId: string, content: string): void {
    const state = this.getSnapshot();
    this.update({
      messages: [
        ...state.messages,
        { id: createMessageId(), role: 'tool', tool_call_id: toolCallId, content },
      ],
      toolCalls: state.toolCalls.filter((call) => call.id !== toolCallId),
    });
  }

  /**
   * Aborts the turn in flight (closing the connection); the text received so far stays, as an
   * assistant message marked `stopped`. Stopped before the first token, the user's turn gets an
   * empty `stopped` answer, so the next message does not follow it as a second user turn in a row.
   */
  stop(): void {
    const active = this.active;
    if (!active) return;
    this.active = undefined;
    active.abort();
    const messages = this.getSnapshot().messages;
    const last = messages.at(-1);
    const marked: SessionMessage =
      last?.role === 'assistant'
        ? { ...last, stopped: true }
        : { id: createMessageId(), role: 'assistant', content: '', stopped: true };
    this.update({
      messages:
        last?.role === 'assistant' ? [...messages.slice(0, -1), marked] : [...messages, marked],
      status: 'ready',
      finishReason: 'stopped',
    });
  }

  /** Replaces the conversation (clear it, edit a message). Does not send anything. */
  setMessages(
    next:
      | readonly MessageInput[]
      | ((current: readonly SessionMessage[]) => readonly MessageInput[]),
  ): void {
    const messages = typeof next === 'function' ? next(this.getSnapshot().messages) : next;
    this.update({ messages: messages.map(toSessionMessage), toolCalls: [] });
  }

  /**
   * Aborts the turn in flight without touching the state (a component unmounting, a screen
   * closing): nothing is published afterwards for that turn.
   */
  dispose(): void {
    this.active?.abort();
    this.active = undefined;
  }

  private async run(
    history: readonly SessionMessage[],
    turn: TurnOptions = {},
  ): Promise<SessionMessage | null> {
    this.active?.abort();
    const controller = new AbortController();
    this.active = controller;
    const isLive = () => this.active === controller;
    const assistantId = createMessageId();
    let progress: TurnProgress = { text: '', toolCalls: [], model: undefined };
    this.update({
      messages: history,
      status: 'submitted',
      error: undefined,
      finishReason: null,
      usage: undefined,
      toolCalls: [],
      responseModel: undefined,
    });
    const { client, model, requestOptions } = this.settings;
    const format = withTurnBody(this.format, turn.body);
    try {
      const result = await streamTurn({
        client,
        model,
        messages: history,
        format,
        continuation: this.continuation(format, history),
        options: { ...requestOptions, signal: controller.signal },
        onProgress: (next) => {
          if (!isLive()) return;
          progress = next;
          this.update({
            messages: [...history, assistantMessage(assistantId, next)],
            status: 'streaming',
            responseModel: next.model,
          });
        },
      });
      if (!isLive()) return null;
      this.active = undefined;
      const message = assistantMessage(assistantId, result);
      this.stored = keptBy(format, result, [...history, message]);
      return this.finish(history, message, result);
    } catch (caught) {
      // Stopped or superseded: whoever did that has set the state.
      if (!isLive()) return null;
      this.active = undefined;
      const error = asModelgateError(caught);
      const kept = progress.text === '' && progress.toolCalls.length === 0;
      this.update({
        messages: kept ? history : [...history, assistantMessage(assistantId, progress)],
        status: 'error',
        error,
      });
      this.settings.onError?.(error);
      return null;
    }
  }

  /**
   * On `/v1/responses`, the latest stored answer when the conversation still starts with exactly
   * what it ended (same message objects: an edit, a regenerate or a reload breaks the chain) and
   * has something after it; the turn then sends only the new messages.
   */
  private continuation(
    format: ChatFormat,
    history: readonly SessionMessage[],
  ): { responseId: string; after: number } | undefined {
    const stored = this.stored;
    if (format.format !== 'responses' || format.body?.store === false || !stored) return undefined;
    const after = stored.messages.length;
    if (after >= history.length) return undefined;
    if (!stored.messages.every((message, i) => history[i] === message)) return undefined;
    return { responseId: stored.responseId, after };
  }

  private finish(
    history: readonly SessionMessage[],
    message: SessionMessage,
    result: TurnResult,
  ): SessionMessage {
    const totalUsage = addUsage(this.getSnapshot().totalUsage, result.usage);
    const price = this.settings.pricePerMillionTokens;
    this.update({
      messages: [...history, message],
      status: 'ready',
      finishReason: result.finishReason,
      usage: result.usage,
      totalUsage,
      cost: price ? costOf(totalUsage, price) : undefined,
      toolCalls: result.finishReason === 'tool_calls' ? result.toolCalls : [],
      responseModel: result.model,
    });
    this.settings.onFinish?.(message, {
      finishReason: result.finishReason,
      usage: result.usage,
      responseId: result.responseId,
      model: result.model,
    });
    return message;
  }

  private update(change: Partial<ChatSessionState>): void {
    this.store.set({ ...this.store.get(), ...change });
    for (const listener of [...this.listeners]) listener();
  }
}

/** The session's body with one turn's fields on top (the turn's body is for the session's format). */
function withTurnBody(format: ChatFormat, extra: TurnOptions['body']): ChatFormat {
  if (!extra) return format;
  switch (format.format) {
    case 'messages':
      return { format: 'messages', body: { ...format.body, ...(extra as MessagesRequestExtras) } };
    case 'responses':
      return {
        format: 'responses',
        body: { ...format.body, ...(extra as ResponsesRequestExtras) },
      };
    default:
      return { format: 'chat', body: { ...format.body, ...(extra as ChatRequestExtras) } };
  }
}

/** The answer as the next turn's continuation, when the gateway stored it. */
function keptBy(
  format: ChatFormat,
  result: TurnResult,
  messages: readonly SessionMessage[],
): StoredTurn | undefined {
  if (format.format !== 'responses' || format.body?.store === false) return undefined;
  return result.responseId ? { responseId: result.responseId, messages } : undefined;
}

function assistantMessage(id: string, progress: TurnProgress): SessionMessage {
  const toolCalls: ChatToolCall[] = progress.toolCalls;
  return toolCalls.length > 0
    ? {
        id,
        role: 'assistant',
        content: progress.text === '' ? null : progress.text,
        tool_calls: toolCalls,
      }
    : { id, role: 'assistant', content: progress.text };
}

function addUsage(total: CompletionUsage, turn: CompletionUsage | undefined): CompletionUsage {
  if (!turn) return total;
  return {
    prompt_tokens: total.prompt_tokens + turn.prompt_tokens,
    completion_tokens: total.completion_tokens + turn.completion_tokens,
    total_tokens: total.total_tokens + turn.total_tokens,
  };
}

function costOf(usage: CompletionUsage, price: TokenPrice): number {
  return (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1_000_000;
}

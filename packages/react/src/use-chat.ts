// useChat: a conversation whose last assistant message streams in from POST /v1/chat/completions.
import type {
  ChatCompletionChunk,
  CompletionUsage,
  FinishReason,
  ModelgateClient,
  ModelgateError,
} from '@modelgate/core';
import {
  type ChatStreamRequest,
  type StreamOptions,
  streamChatCompletion,
} from '@modelgate/stream';
import { type ChangeEvent, type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { createFrameBatcher } from './batch.js';
import { type ClientSource, useClientSource } from './client.js';
import { toModelgateError } from './errors.js';
import {
  createMessageId,
  type MessageInput,
  toRequestMessages,
  toUIMessage,
  type UIMessage,
} from './messages.js';

/** Request fields sent with every turn besides `model` and `messages` (temperature, max_tokens, …). */
export type ChatRequestExtras = Partial<Omit<ChatStreamRequest, 'model' | 'messages'>>;

/** What `onFinish` learns besides the finished message. */
export interface ChatFinishDetails {
  /** Why the model stopped (`stop`, `length`, …), or null when the stream did not say. */
  finishReason: FinishReason | null;
  /** Token counts (sent because the hook asks for `stream_options.include_usage`). */
  usage: CompletionUsage | undefined;
  /** The `chatcmpl-…` id of the completion. */
  completionId: string | undefined;
}

/** Options of {@link useChat}: a client source plus the conversation's settings. */
export type UseChatOptions = ClientSource & {
  /** A text model id from `GET /v1/models`. Read at each request, so it may change between turns. */
  model: string;
  /** The conversation to start from (ids are added where missing). Read on the first render only. */
  initialMessages?: readonly MessageInput[];
  /** The input box's starting value. */
  initialInput?: string;
  /** Extra request fields for every turn, e.g. `{ temperature: 0.2, max_tokens: 512 }`. */
  body?: ChatRequestExtras;
  /** Per-request options: `headers`, `timeoutMs` (until the headers arrive), `maxRetries`. */
  requestOptions?: Omit<StreamOptions, 'signal'>;
  /** Called once per completed answer (not after `stop()` or an error). */
  onFinish?: (message: UIMessage, details: ChatFinishDetails) => void;
  /** Called when a request fails; the same error is in `error`. */
  onError?: (error: ModelgateError) => void;
};

/** Per-call options of `append` and `reload`. */
export interface ChatRequestOptions {
  /** Extra request fields for this turn only; they win over the hook's `body`. */
  body?: ChatRequestExtras;
}

/**
 * Where the conversation is: `submitted` (sent, no text yet), `streaming` (text arriving),
 * `ready` (idle, answer complete or stopped) or `error` (the last turn failed; see `error`).
 */
export type ChatStatus = 'submitted' | 'streaming' | 'ready' | 'error';

/** What {@link useChat} returns. */
export interface UseChatResult {
  /** The conversation, oldest first; the last assistant message grows while `isLoading`. */
  messages: UIMessage[];
  /** Replaces the conversation (e.g. to clear it or edit a message). Does not send anything. */
  setMessages: (messages: UIMessage[] | ((current: UIMessage[]) => UIMessage[])) => void;
  /** The input box's value. */
  input: string;
  setInput: (value: string) => void;
  /** `onChange` for an `<input>` or `<textarea>` bound to `input`. */
  handleInputChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** `onSubmit` for a `<form>`: sends `input` as a user message and clears it. Ignores blank input. */
  handleSubmit: (
    event?: { preventDefault?: () => void } | FormEvent,
    options?: ChatRequestOptions,
  ) => void;
  /**
   * Adds a message (a string is a user message) and streams the answer. Resolves with the
   * assistant's message, or null when the request failed or was stopped.
   */
  append: (message: MessageInput, options?: ChatRequestOptions) => Promise<UIMessage | null>;
  /** Asks again: drops the answer after the last user message and streams a new one. */
  reload: (options?: ChatRequestOptions) => Promise<UIMessage | null>;
  /** Aborts the request in flight; the text received so far stays in `messages`. */
  stop: () => void;
  /** True from sending until the answer is complete, failed or stopped. */
  isLoading: boolean;
  /** Finer than `isLoading`: tells "waiting for the first token" from "streaming". */
  status: ChatStatus;
  /** The last request's failure (cleared by the next request): branch on `status` and `code`. */
  error: ModelgateError | undefined;
}

interface ActiveRequest {
  controller: AbortController;
  /** Renders the text received so far right now (stop() keeps the partial answer). */
  flush: () => void;
}

/**
 * A streaming chat conversation. Each turn sends the whole conversation to
 * `POST /v1/chat/completions` with `stream: true` and grows the last assistant message as chunks
 * arrive, rendering at most once per animation frame. `stop()` and unmounting abort the request
 * (closing the connection, so the gateway stops the upstream call); nothing updates state after
 * unmount. One request at a time: sending again aborts the one in flight.
 *
 * @example
 * ```tsx
 * import { useChat, getMessageText } from '@modelgate/react';
 *
 * function Chat({ apiKey }: { apiKey: string }) {
 *   const { messages, input, handleInputChange, handleSubmit, isLoading, stop, error } = useChat({
 *     baseUrl: 'http://localhost:8080',
 *     apiKey,
 *     model: 'gpt-4o-mini',
 *   });
 *   return (
 *     <form onSubmit={handleSubmit}>
 *       {messages.map((m) => <p key={m.id}><b>{m.role}:</b> {getMessageText(m)}</p>)}
 *       {error && <p role="alert">{error.status === 402 ? 'Out of credit' : error.message}</p>}
 *       <input value={input} onChange={handleInputChange} />
 *       {isLoading ? <button type="button" onClick={stop}>Stop</button> : <button>Send</button>}
 *     </form>
 *   );
 * }
 * ```
 */
export function useChat(options: UseChatOptions): UseChatResult {
  const client = useClientSource(options);
  const [messages, setMessagesState] = useState<UIMessage[]>(() =>
    (options.initialMessages ?? []).map(toUIMessage),
  );
  const [input, setInput] = useState(options.initialInput ?? '');
  const [isLoading, setIsLoading] = useState(false);
  const [error, setError] = useState<ModelgateError | undefined>(undefined);

  // Callbacks read the latest values through refs, so the functions we return never change identity.
  const messagesRef = useRef(messages);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const clientRef = useRef<ModelgateClient>(client);
  clientRef.current = client;
  const activeRef = useRef<ActiveRequest | undefined>(undefined);
  const mountedRef = useRef(false);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      activeRef.current?.controller.abort();
      activeRef.current = undefined;
    };
  }, []);

  const commitMessages = useCallback((next: UIMessage[]) => {
    messagesRef.current = next;
    setMessagesState(next);
  }, []);

  const setMessages = useCallback<UseChatResult['setMessages']>(
    (next) => commitMessages(typeof next === 'function' ? next(messagesRef.current) : next),
    [commitMessages],
  );

  const send = useCallback(
    async (history: UIMessage[], turn: ChatRequestOptions = {}): Promise<UIMessage | null> => {
      activeRef.current?.controller.abort();
      const controller = new AbortController();
      const settings = optionsRef.current;
      const assistant: UIMessage = { id: createMessageId(), role: 'assistant', content: '' };
      let text = '';
      let started = false;
      // Only the newest request of a mounted component may touch state.
      const isLive = () => mountedRef.current && activeRef.current?.controller === controller;
      const render = () => {
        if (!started || !isLive()) return;
        commitMessages([...history, { ...assistant, content: text }]);
      };
      const batcher = createFrameBatcher(render);
      activeRef.current = { controller, flush: () => batcher.flushNow() };

      commitMessages(history);
      setError(undefined);
      setIsLoading(true);

      let finishReason: FinishReason | null = null;
      let usage: CompletionUsage | undefined;
      let completionId: string | undefined;
      try {
        const stream = streamChatCompletion(
          clientRef.current,
          {
            stream_options: { include_usage: true },
            ...settings.body,
            ...turn.body,
            model: settings.model,
            messages: toRequestMessages(history),
          },
          { ...settings.requestOptions, signal: controller.signal },
        );
        for await (const chunk of stream) {
          completionId ??= chunk.id;
          if (chunk.usage) usage = chunk.usage;
          const choice = firstChoice(chunk);
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          const piece = choice?.delta.content;
          if (typeof piece === 'string' && piece !== '') {
            text += piece;
            started = true;
            batcher.schedule();
          }
        }
        batcher.cancel();
        if (!isLive()) return null;
        const message: UIMessage = { ...assistant, content: text };
        commitMessages([...history, message]);
        activeRef.current = undefined;
        setIsLoading(false);
        settings.onFinish?.(message, { finishReason, usage, completionId });
        return message;
      } catch (caught) {
        batcher.cancel();
        // Stopped, superseded by a newer request, or unmounted: whoever did that owns the state.
        if (!isLive() || controller.signal.aborted) return null;
        const failure = toModelgateError(caught);
        render(); // keep whatever arrived before the failure
        activeRef.current = undefined;
        setError(failure);
        setIsLoading(false);
        settings.onError?.(failure);
        return null;
      }
    },
    [commitMessages],
  );

  const append = useCallback<UseChatResult['append']>(
    (message, turn) => send([...messagesRef.current, toUIMessage(message)], turn),
    [send],
  );

  const reload = useCallback<UseChatResult['reload']>(
    async (turn) => {
      const current = messagesRef.current;
      const lastUser = current.findLastIndex((m) => m.role === 'user');
      if (lastUser < 0) return null;
      return send(current.slice(0, lastUser + 1), turn);
    },
    [send],
  );

  const stop = useCallback(() => {
    const active = activeRef.current;
    if (!active) return;
    active.flush();
    activeRef.current = undefined;
    active.controller.abort();
    if (mountedRef.current) setIsLoading(false);
  }, []);

  const handleInputChange = useCallback<UseChatResult['handleInputChange']>(
    (event) => setInput(event.target.value),
    [],
  );

  const inputRef = useRef(input);
  inputRef.current = input;
  const handleSubmit = useCallback<UseChatResult['handleSubmit']>(
    (event, turn) => {
      event?.preventDefault?.();
      const text = inputRef.current;
      if (text.trim() === '') return;
      setInput('');
      void append(text, turn);
    },
    [append],
  );

  // While a turn runs the conversation ends with the user's message until the first text arrives.
  const status: ChatStatus = isLoading
    ? messages.at(-1)?.role === 'assistant'
      ? 'streaming'
      : 'submitted'
    : error
      ? 'error'
      : 'ready';

  return {
    messages,
    setMessages,
    input,
    setInput,
    handleInputChange,
    handleSubmit,
    append,
    reload,
    stop,
    isLoading,
    status,
    error,
  };
}

function firstChoice(chunk: ChatCompletionChunk) {
  return chunk.choices.find((choice) => choice.index === 0);
}

// useChat: a ChatSession from @modelgate/stream, rendered with useSyncExternalStore.
import type { ChatToolCall, CompletionUsage, ModelgateError } from '@modelgate/core';
import {
  type ChatFinishDetails,
  type ChatRequestExtras,
  ChatSession,
  type ChatSessionOptions,
  type ChatStatus,
  chatFormatOf,
  createBatchedView,
  type MessageInput,
  type MessagesRequestExtras,
  type ResponsesRequestExtras,
  type SessionMessage,
  type StreamOptions,
  type TokenPrice,
  type TurnEnd,
  type TurnOptions,
} from '@modelgate/stream';
import {
  type ChangeEvent,
  type FormEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createFrameBatcher } from './batch.js';
import { type ClientSource, useClientSource } from './client.js';

/** A chat message with a stable `id` for React keys (the id is never sent). */
export type UIMessage = SessionMessage;

/** Options of {@link useChat}: a client source plus the conversation's settings. */
export type UseChatOptions = ClientSource &
  (
    | {
        /** `/v1/chat/completions` (the default). */
        format?: 'chat' | undefined;
        /** Extra request fields for every turn, e.g. `{ temperature: 0.2, max_tokens: 512 }`. */
        body?: ChatRequestExtras | undefined;
      }
    | {
        /** `/v1/messages` (max_tokens 1024 unless `body.max_tokens` says otherwise). */
        format: 'messages';
        body?: MessagesRequestExtras | undefined;
      }
    | {
        /**
         * `/v1/responses` (OpenAI's Responses API). Each answer is stored by the gateway, so the
         * next turn sends only the new messages with `previous_response_id`.
         */
        format: 'responses';
        body?: ResponsesRequestExtras | undefined;
      }
  ) & {
    /** A text model id from `GET /v1/models`. May change between turns. */
    model: string;
    /** The conversation to start from (ids are added where missing). Read on the first render only. */
    initialMessages?: readonly MessageInput[] | undefined;
    /** The input box's starting value. */
    initialInput?: string | undefined;
    /** Where the conversation lives (e.g. `createWebStorageChatStore(localStorage, 'chat')`); first render only. */
    store?: ChatSessionOptions['store'];
    /** Per-request options: `headers`, `timeoutMs` (until the headers arrive), `maxRetries`. */
    requestOptions?: Omit<StreamOptions, 'signal'> | undefined;
    /** Credits per million tokens; enables `cost`. */
    pricePerMillionTokens?: TokenPrice | undefined;
    /** Called once per completed answer (not after `stop()` or an error). */
    onFinish?: ((message: UIMessage, details: ChatFinishDetails) => void) | undefined;
    /** Called when a request fails; the same error is in `error`. */
    onError?: ((error: ModelgateError) => void) | undefined;
  };

/** What {@link useChat} returns. Every function keeps its identity across renders. */
export interface UseChatResult {
  /** The conversation, oldest first; the last assistant message grows while `isLoading`. */
  messages: readonly UIMessage[];
  /** Replaces the conversation (e.g. to clear it or edit a message). Does not send anything. */
  setMessages: ChatSession['setMessages'];
  /** The input box's value. */
  input: string;
  setInput: (value: string) => void;
  /** `onChange` for an `<input>` or `<textarea>` bound to `input`. */
  handleInputChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** `onSubmit` for a `<form>`: sends `input` as a user message and clears it. Ignores blank input. */
  handleSubmit: (event?: { preventDefault?: () => void } | FormEvent, turn?: TurnOptions) => void;
  /**
   * Adds a message (a string is a user message) and streams the answer. Resolves with the
   * assistant's message, or null when the request failed or was stopped.
   */
  append: (message: MessageInput, turn?: TurnOptions) => Promise<UIMessage | null>;
  /** Asks again: drops the answer after the last user message and streams a new one. */
  regenerate: (turn?: TurnOptions) => Promise<UIMessage | null>;
  /** Answers a call in `toolCalls`; `continueChat()` once every call has its result. */
  addToolResult: (toolCallId: string, content: string) => void;
  /** Asks for the next answer to the conversation as it is (after tool results). */
  continueChat: (turn?: TurnOptions) => Promise<UIMessage | null>;
  /** Aborts the request in flight; the text received so far stays in `messages`. */
  stop: () => void;
  /** True from sending until the answer is complete, failed or stopped. */
  isLoading: boolean;
  /** `submitted` (waiting for the first token), `streaming`, `ready` or `error`. */
  status: ChatStatus;
  /** The last request's failure (cleared by the next request): branch on `status` and `code`. */
  error: ModelgateError | undefined;
  /** Why the latest answer ended (`stop`, `length`, `tool_calls`, …, or `stopped` by `stop()`). */
  finishReason: TurnEnd | null;
  /** Token counts of the latest answer, once complete (undefined while streaming, stopped or failed). */
  usage: CompletionUsage | undefined;
  /** Token counts of every completed answer of this hook's session, added up. */
  totalUsage: CompletionUsage;
  /** `totalUsage` in credits, when `pricePerMillionTokens` is given. */
  cost: number | undefined;
  /** Tool calls the latest answer waits for. */
  toolCalls: readonly ChatToolCall[];
}

/**
 * A streaming chat conversation over `@modelgate/stream`'s {@link ChatSession}: each turn sends the
 * conversation with `stream: true` (to `/v1/chat/completions`, `/v1/messages` with
 * `format: 'messages'`, or `/v1/responses` with `format: 'responses'`) and grows the last
 * assistant message as text arrives, rendered at most once per animation frame; status and
 * errors render at once. `stop()` and unmounting abort the request (closing the connection, so the
 * gateway stops the upstream call).
 *
 * @example
 * ```tsx
 * import { useChat, getMessageText } from '@modelgate/react';
 *
 * function Chat({ apiKey }: { apiKey: string }) {
 *   const { messages, input, handleInputChange, handleSubmit, isLoading, stop, error, usage } = useChat({
 *     baseUrl: 'http://localhost:8080',
 *     apiKey,
 *     model: 'gpt-4o-mini',
 *   });
 *   return (
 *     <form onSubmit={handleSubmit}>
 *       {messages.map((m) => <p key={m.id}><b>{m.role}:</b> {getMessageText(m)}</p>)}
 *       {error && <p role="alert">{error.status === 402 ? 'Out of credit' : error.message}</p>}
 *       {usage && <small>{usage.total_tokens} tokens</small>}
 *       <input value={input} onChange={handleInputChange} />
 *       {isLoading ? <button type="button" onClick={stop}>Stop</button> : <button>Send</button>}
 *     </form>
 *   );
 * }
 * ```
 */
export function useChat(options: UseChatOptions): UseChatResult {
  const client = useClientSource(options);
  const [session] = useState(
    () =>
      new ChatSession({
        client,
        model: options.model,
        initialMessages: options.initialMessages,
        store: options.store,
      }),
  );
  // The latest options reach the session before any handler runs; callbacks stay stable.
  session.setOptions({
    client,
    model: options.model,
    requestOptions: options.requestOptions,
    pricePerMillionTokens: options.pricePerMillionTokens,
    onFinish: options.onFinish,
    onError: options.onError,
  });
  session.setFormat(chatFormatOf(options));
  const view = useMemo(() => createBatchedView(session, createFrameBatcher), [session]);
  const state = useSyncExternalStore(view.subscribe, view.getSnapshot, view.getSnapshot);
  useEffect(() => () => session.dispose(), [session]);

  const [input, setInput] = useState(options.initialInput ?? '');
  const inputRef = useRef(input);
  inputRef.current = input;

  const append = useCallback<UseChatResult['append']>(
    (message, turn) => session.send(message, turn),
    [session],
  );
  const continueChat = useCallback<UseChatResult['continueChat']>(
    (turn) => session.send(undefined, turn),
    [session],
  );
  const handleInputChange = useCallback<UseChatResult['handleInputChange']>(
    (event) => setInput(event.target.value),
    [],
  );
  const handleSubmit = useCallback<UseChatResult['handleSubmit']>(
    (event, turn) => {
      event?.preventDefault?.();
      const text = inputRef.current;
      if (text.trim() === '') return;
      setInput('');
      void session.send(text, turn);
    },
    [session],
  );
  const actions = useMemo(
    () => ({
      setMessages: session.setMessages.bind(session),
      regenerate: session.regenerate.bind(session),
      addToolResult: session.addToolResult.bind(session),
      stop: session.stop.bind(session),
    }),
    [session],
  );

  return {
    ...actions,
    messages: state.messages,
    input,
    setInput,
    handleInputChange,
    handleSubmit,
    append,
    continueChat,
    isLoading: state.status === 'submitted' || state.status === 'streaming',
    status: state.status,
    error: state.error,
    finishReason: state.finishReason,
    usage: state.usage,
    totalUsage: state.totalUsage,
    cost: state.cost,
    toolCalls: state.toolCalls,
  };
}

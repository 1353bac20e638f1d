// The chat screen's view of a `ChatSession` from @modelgate/stream: the session streams, keeps the
// conversation and counts usage; this hook only decides when the terminal redraws and which
// finished paragraphs go to the scrollback.
import type { ChatMessage, CompletionUsage, ModelgateClient } from '@modelgate/core';
import {
  ChatSession,
  type ChatSessionState,
  createBatchedView,
  createIntervalBatcher,
  getMessageText,
} from '@modelgate/stream';
import {
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { ChatApi } from '../args.js';
import { describeError, type ErrorInfo } from '../errors.js';
import { lastParagraphBreak } from './markdown.js';

/** The answer being streamed, as the screen shows it. */
export interface StreamingAnswer {
  model: string;
  /** The part not yet handed to `onParagraphs` (the paragraph being written). */
  text: string;
  /** True once earlier paragraphs went to `onParagraphs` (no model header then). */
  continued: boolean;
}

/** Finished paragraphs of a streaming answer, printed once instead of redrawn with every token. */
export type ParagraphsHandler = (part: { model: string; text: string; continued: boolean }) => void;

/** How a streamed answer ended; `model` is the one that answered. */
export type ChatOutcome = (
  | { kind: 'done'; usage: CompletionUsage | undefined }
  | { kind: 'stopped' }
  | { kind: 'failed'; error: ErrorInfo }
) & {
  model: string;
  /** The whole answer (as far as it got). */
  text: string;
  /** The end of it that `onParagraphs` has not received. */
  rest: string;
  /** True when `onParagraphs` received the beginning. */
  continued: boolean;
};

export interface ChatSessionControls {
  /** `null` when nothing streams. Text updates at most once per `batchMs`. */
  streaming: StreamingAnswer | null;
  /**
   * Adds `message` to the conversation and streams the answer; resolves when it ended, never
   * rejects. A failed turn leaves the conversation as it was before; a stopped one keeps its text.
   */
  send(model: string, message: ChatMessage): Promise<ChatOutcome>;
  /** Stops the running answer (its outcome becomes `stopped`). Returns false if nothing ran. */
  stop(): boolean;
  /** Forgets the conversation (the next prompt starts a new one). */
  clear(): void;
}

/** Which answer the scrollback has received a beginning of, and up to where. */
interface HandedOver {
  messageId: string;
  end: number;
}

/**
 * Text is redrawn at most once per `batchMs` (status and errors at once), and each finished
 * paragraph (text before a blank line outside a code fence) goes to `onParagraphs` once, so a long
 * answer never redraws more than its last paragraph, and a code block is printed whole.
 *
 * @example
 * ```tsx
 * const { streaming, send, stop } = useChatSession(client, 40, (part) => print(part.text));
 * const outcome = await send('gpt-4o-mini', { role: 'user', content: 'Hi' });
 * ```
 */
export function useChatSession(
  client: ModelgateClient,
  batchMs = 40,
  onParagraphs?: ParagraphsHandler,
  /** The API the answers come from; read on the first render. */
  api: ChatApi = 'chat',
): ChatSessionControls {
  const [session] = useState(() => new ChatSession({ client, model: '', format: api }));
  session.setOptions({ client });
  const view = useMemo(
    () => createBatchedView(session, (flush) => createIntervalBatcher(flush, batchMs)),
    [session, batchMs],
  );
  const state = useSyncExternalStore(view.subscribe, view.getSnapshot, view.getSnapshot);
  // Leaving the screen must not leave a connection open.
  useLayoutEffect(() => () => session.dispose(), [session]);

  const requested = useRef('');
  const handedOver = useRef<HandedOver>({ messageId: '', end: 0 });
  const [, redraw] = useState(0);
  // `requested` is set before the turn's first state, so the state alone decides what shows.
  const live = useMemo(() => liveAnswer(state, requested.current), [state]);
  const paragraphsHandler = useRef(onParagraphs);
  paragraphsHandler.current = onParagraphs;

  // After each redraw, the paragraphs finished by then move to the scrollback (and out of `streaming`).
  useLayoutEffect(() => {
    const handler = paragraphsHandler.current;
    if (!live || !handler) return;
    const from = handedOver.current.messageId === live.messageId ? handedOver.current.end : 0;
    const cut = lastParagraphBreak(live.text);
    const part = live.text.slice(from, Math.max(from, cut));
    if (part.trim() === '') return;
    handedOver.current = { messageId: live.messageId, end: cut + 2 };
    handler({ model: live.model, text: part, continued: from > 0 });
    redraw((n) => n + 1);
  }, [live]);

  const send = useCallback(
    async (model: string, message: ChatMessage): Promise<ChatOutcome> => {
      requested.current = model;
      session.setOptions({ model });
      const before = session.getSnapshot().messages;
      const answer = await session.send(message);
      const after = session.getSnapshot();
      const last = after.messages.at(-1);
      const partial = after.messages.length > before.length + 1 && last ? last : undefined;
      const text = partial ? getMessageText(partial) : '';
      const from =
        partial && handedOver.current.messageId === partial.id ? handedOver.current.end : 0;
      const ended = {
        model: after.responseModel ?? model,
        text,
        rest: text.slice(from),
        continued: from > 0,
      };
      if (answer) return { kind: 'done', usage: after.usage, ...ended };
      if (after.status !== 'error') return { kind: 'stopped', ...ended };
      session.setMessages(before);
      return { kind: 'failed', error: describeError(after.error), ...ended };
    },
    [session],
  );

  const stop = useCallback(() => {
    if (!isRunning(session.getSnapshot())) return false;
    session.stop();
    return true;
  }, [session]);

  const clear = useCallback(() => session.setMessages([]), [session]);

  const from = live && handedOver.current.messageId === live.messageId ? handedOver.current.end : 0;
  const streaming = live
    ? { model: live.model, text: live.text.slice(from), continued: from > 0 }
    : null;
  return { streaming, send, stop, clear };
}

function isRunning(state: ChatSessionState): boolean {
  return state.status === 'submitted' || state.status === 'streaming';
}

/** The answer of the running turn ('' until its first token), or null when none runs. */
function liveAnswer(
  state: ChatSessionState,
  requestedModel: string,
): { messageId: string; model: string; text: string } | null {
  if (!isRunning(state)) return null;
  const last = state.messages.at(-1);
  const answer = state.status === 'streaming' && last?.role === 'assistant' ? last : undefined;
  return {
    messageId: answer?.id ?? '',
    model: state.responseModel ?? requestedModel,
    text: answer ? getMessageText(answer) : '',
  };
}

// One streaming answer at a time: starts it, batches its tokens into state, stops it on request.
import type { ChatMessage, CompletionUsage, ModelgateClient } from '@modelgate/core';
import { type ChatCompletionStream, streamChatCompletion } from '@modelgate/stream';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, type ErrorInfo, isAbortError } from '../errors.js';
import { createTokenBatcher } from '../token-batcher.js';
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

export interface ChatStreamControls {
  /** `null` when nothing streams. Updated at most once per `batchMs`. */
  streaming: StreamingAnswer | null;
  /** Streams an answer to `messages`; resolves when it ended, never rejects. */
  send(model: string, messages: ChatMessage[]): Promise<ChatOutcome>;
  /** Stops the running answer (its outcome becomes `stopped`). Returns false if nothing ran. */
  stop(): boolean;
}

/**
 * Tokens are batched (one redraw per `batchMs` at most), and each finished paragraph (text before a
 * blank line outside a code fence) goes to `onParagraphs` once, so a long answer never redraws more
 * than its last paragraph, and a code block is printed whole.
 *
 * This hook and `watchVideoTask` are the only places the screen streams or polls: a shared chat
 * session can replace this hook behind the same `ChatStreamControls` without touching the screen.
 *
 * @example
 * ```tsx
 * const { streaming, send, stop } = useChatStream(client, 40, (part) => print(part.text));
 * const outcome = await send('gpt-4o-mini', [{ role: 'user', content: 'Hi' }]);
 * ```
 */
export function useChatStream(
  client: ModelgateClient,
  batchMs = 40,
  onParagraphs?: ParagraphsHandler,
): ChatStreamControls {
  const [streaming, setStreaming] = useState<StreamingAnswer | null>(null);
  const running = useRef<ChatCompletionStream | null>(null);
  const paragraphsHandler = useRef(onParagraphs);
  paragraphsHandler.current = onParagraphs;

  // Leaving the screen must not leave a connection open.
  useEffect(() => () => running.current?.abort(), []);

  const send = useCallback(
    async (model: string, messages: ChatMessage[]): Promise<ChatOutcome> => {
      running.current?.abort();
      const stream = streamChatCompletion(client, {
        model,
        messages,
        stream_options: { include_usage: true },
      });
      running.current = stream;
      // The model that answers is the one the chunks name (the gateway may resolve an alias).
      let answeredBy = model;
      let handedOver = 0; // text[0, handedOver) went to onParagraphs
      setStreaming({ model, text: '', continued: false });
      const batcher = createTokenBatcher((text) => {
        const cut = lastParagraphBreak(text);
        if (paragraphsHandler.current && cut >= handedOver) {
          const part = text.slice(handedOver, cut);
          if (part.trim() !== '') {
            paragraphsHandler.current({ model: answeredBy, text: part, continued: handedOver > 0 });
            handedOver = cut + 2;
          }
        }
        setStreaming({
          model: answeredBy,
          text: text.slice(handedOver),
          continued: handedOver > 0,
        });
      }, batchMs);

      let text = '';
      let usage: CompletionUsage | undefined;
      const ended = () => ({
        model: answeredBy,
        text,
        rest: text.slice(handedOver),
        continued: handedOver > 0,
      });
      try {
        for await (const chunk of stream) {
          answeredBy = chunk.model || answeredBy;
          if (chunk.usage) usage = chunk.usage;
          const piece = chunk.choices[0]?.delta.content ?? '';
          text += piece;
          batcher.push(piece);
        }
        return { kind: 'done', usage, ...ended() };
      } catch (error) {
        if (isAbortError(error)) return { kind: 'stopped', ...ended() };
        return { kind: 'failed', error: describeError(error), ...ended() };
      } finally {
        batcher.cancel();
        if (running.current === stream) {
          running.current = null;
          setStreaming(null);
        }
      }
    },
    [client, batchMs],
  );

  const stop = useCallback(() => {
    const stream = running.current;
    if (!stream) return false;
    stream.abort();
    return true;
  }, []);

  return { streaming, send, stop };
}

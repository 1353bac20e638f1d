// Tokens arrive far faster than a terminal should repaint: collect them and hand the joined text
// over at most once per interval, so the streaming message re-renders ~25 times a second, not per token.

export interface TokenBatcher {
  /** Adds a piece; the text is handed over within `intervalMs`. */
  push(piece: string): void;
  /** Hands over everything pending now (stream end, abort). */
  flush(): void;
  /** Drops the timer without handing anything over (unmount). */
  cancel(): void;
}

/**
 * @param onFlush receives the full text so far (not only the new part), so a missed flush never loses text.
 *
 * @example
 * ```ts
 * const batcher = createTokenBatcher((text) => setStreamingText(text), 40);
 * for await (const chunk of stream) batcher.push(chunk.choices[0]?.delta.content ?? '');
 * batcher.flush();
 * ```
 */
export function createTokenBatcher(onFlush: (text: string) => void, intervalMs = 40): TokenBatcher {
  let text = '';
  let flushed = '';
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (text === flushed) return;
    flushed = text;
    onFlush(text);
  };

  return {
    push(piece) {
      if (!piece) return;
      text += piece;
      timer ??= setTimeout(flush, intervalMs);
    },
    flush,
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

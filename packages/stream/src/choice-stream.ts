// What the chat and legacy completion streams share: the same wire format (`data: {chunk}` events
// ending with `data: [DONE]`, errors as `{"error": {…}}`), and chunks whose `choices[]` are
// increments keyed by `index`, with `usage` in a last chunk when asked for.
import { type CompletionUsage, ModelgateError } from '@modelgate/core';
import {
  isRecord,
  ModelgateStream,
  type OpenStream,
  parseEventData,
  STREAM_DONE,
} from './event-stream.js';
import type { SseEvent } from './sse.js';

/** The part of a chunk the accumulator reads. */
interface OpenAIStyleChunk {
  usage?: CompletionUsage | null;
  choices: ReadonlyArray<{ index: number }>;
}

/**
 * Decodes an OpenAI-style event; an error payload (`data: {"error": {…}}` or `event: error`)
 * throws a ModelgateError.
 */
export function decodeOpenAIStyleEvent(event: SseEvent): unknown | typeof STREAM_DONE {
  if (event.data === '[DONE]') return STREAM_DONE;
  const payload = parseEventData(event);
  if (event.event === 'error' || (isRecord(payload) && payload.error != null)) {
    throw ModelgateError.fromBody(payload);
  }
  return payload;
}

/**
 * A stream of OpenAI-style chunks folded into one state per choice. Subclasses say what a choice's
 * state starts as and how a choice increment adds to it.
 */
export abstract class ChoiceStream<
  Chunk extends OpenAIStyleChunk,
  State,
> extends ModelgateStream<Chunk> {
  private first: Chunk | undefined;
  private usage: CompletionUsage | undefined;
  private readonly states = new Map<number, State>();

  constructor(open: OpenStream, signal?: AbortSignal) {
    super(open, signal);
  }

  /** The state of a choice before its first increment. */
  protected abstract initialState(): State;
  /** Adds one increment of a choice to its state. */
  protected abstract addChoice(state: State, choice: Chunk['choices'][number]): void;

  protected decode(event: SseEvent): Chunk | typeof STREAM_DONE {
    return decodeOpenAIStyleEvent(event) as Chunk | typeof STREAM_DONE;
  }

  protected accumulate(chunk: Chunk): void {
    this.first ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices) {
      const state = this.states.get(choice.index) ?? this.initialState();
      this.states.set(choice.index, state);
      this.addChoice(state, choice);
    }
  }

  /** The stream ended with `[DONE]`; anything else is incomplete. */
  protected isComplete(): boolean {
    return false;
  }

  /**
   * Reads the stream to the end: the first chunk (its id, model, created), the choices' states in
   * index order, and the usage chunk's `usage` when the server sent one.
   */
  protected async drainChoices(): Promise<{
    first: Chunk;
    choices: Array<[index: number, state: State]>;
    usage: CompletionUsage | undefined;
  }> {
    await this.drain();
    const first = this.first;
    if (!first) {
      throw new ModelgateError('The stream carried no chunks', { code: 'stream_incomplete' });
    }
    const choices = [...this.states.entries()].sort(([a], [b]) => a - b);
    return { first, choices, usage: this.usage };
  }

  /** Reads the stream to the end and returns the state of the first choice, if any. */
  protected async firstChoice(): Promise<State | undefined> {
    await this.drain();
    return this.states.get(0);
  }
}

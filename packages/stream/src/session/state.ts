// What a chat session holds, and where it keeps it: in memory by default, or any store you plug in
// (Web Storage below; a database, a Redux slice, … with the same two methods).
import type { ChatToolCall, CompletionUsage, FinishReason, ModelgateError } from '@modelgate/core';
import type { SessionMessage } from './messages.js';

/**
 * Where the conversation is: `submitted` (sent, no text yet), `streaming` (text arriving),
 * `ready` (idle: answer complete or stopped) or `error` (the last turn failed; see `error`).
 */
export type ChatStatus = 'submitted' | 'streaming' | 'ready' | 'error';

/** Why the latest turn ended: the model's reason, or `stopped` by `stop()`. */
export type TurnEnd = FinishReason | 'stopped';

/** A chat session's state. Every change produces a new object (safe for `useSyncExternalStore`). */
export interface ChatSessionState {
  /** The conversation, oldest first; the last assistant message grows while streaming. */
  readonly messages: readonly SessionMessage[];
  readonly status: ChatStatus;
  /** The latest turn's failure (cleared by the next turn): branch on `status` and `code`. */
  readonly error: ModelgateError | undefined;
  /** Why the latest turn ended; null while it runs, after an error, and before the first turn. */
  readonly finishReason: TurnEnd | null;
  /** Token counts of the latest turn once it completed (undefined while it runs, or if it was stopped or failed). */
  readonly usage: CompletionUsage | undefined;
  /** Token counts of every completed turn of this session, added up (clearing the messages keeps them). */
  readonly totalUsage: CompletionUsage;
  /** `totalUsage` in credits at the session's `pricePerMillionTokens`; undefined without a price. */
  readonly cost: number | undefined;
  /** Calls the latest answer asks your code to run (finish reason `tool_calls`); else empty. */
  readonly toolCalls: readonly ChatToolCall[];
  /**
   * The model the latest answer's response names, from its first event on (the gateway may resolve
   * an alias to another id); undefined before any response arrived.
   */
  readonly responseModel: string | undefined;
}

/** The state of a session that has not sent anything. */
export function initialChatState(messages: readonly SessionMessage[] = []): ChatSessionState {
  return {
    messages,
    status: 'ready',
    error: undefined,
    finishReason: null,
    usage: undefined,
    totalUsage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cost: undefined,
    toolCalls: [],
    responseModel: undefined,
  };
}

/**
 * Where a session keeps its state. `get` must return the object last given to `set` (the session
 * compares snapshots by identity); `set` may also persist it.
 */
export interface ChatStateStore {
  get(): ChatSessionState;
  set(state: ChatSessionState): void;
}

/** Keeps the state in memory (the default). */
export function createMemoryChatStore(
  initial: ChatSessionState = initialChatState(),
): ChatStateStore {
  let state = initial;
  return {
    get: () => state,
    set(next) {
      state = next;
    },
  };
}

/** The part of the state worth keeping across page loads. */
interface StoredChat {
  messages: SessionMessage[];
  usage: CompletionUsage | undefined;
  totalUsage: CompletionUsage;
}

/**
 * Keeps the conversation in Web Storage (`localStorage`, `sessionStorage`) under `key`, so it
 * survives a reload. Written when a turn ends, not on every token; status, error and pending tool
 * calls are not stored (a reloaded conversation is `ready`).
 *
 * @example
 * ```ts
 * const session = new ChatSession({ client, model: 'gpt-4o-mini', store: createWebStorageChatStore(localStorage, 'chat') });
 * ```
 */
export function createWebStorageChatStore(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  key: string,
): ChatStateStore {
  let state = load(storage, key);
  return {
    get: () => state,
    set(next) {
      const settled = next.status === 'ready' || next.status === 'error';
      if (settled && next.messages !== state.messages) {
        const stored: StoredChat = {
          messages: [...next.messages],
          usage: next.usage,
          totalUsage: next.totalUsage,
        };
        storage.setItem(key, JSON.stringify(stored));
      }
      state = next;
    },
  };
}

function load(storage: Pick<Storage, 'getItem'>, key: string): ChatSessionState {
  try {
    const stored = JSON.parse(storage.getItem(key) ?? 'null') as StoredChat | null;
    if (!stored || !Array.isArray(stored.messages)) return initialChatState();
    return {
      ...initialChatState(stored.messages),
      usage: stored.usage,
      totalUsage: stored.totalUsage,
    };
  } catch {
    // Unreadable (another app's value, a half-written entry): start over rather than fail.
    return initialChatState();
  }
}

// What one assistant turn produces, whichever format ran: the progress a view draws while it
// streams, and the result at its end.
import type { ChatToolCall, CompletionUsage, FinishReason } from '@modelgate/core';

/** The answer as far as it has arrived. */
export interface TurnProgress {
  text: string;
  toolCalls: ChatToolCall[];
  /** The model as the response names it (the gateway may resolve an alias); known from the first event. */
  model: string | undefined;
}

/** A turn that reached its end. Usage is in the chat format's shape whichever format ran. */
export interface TurnResult extends TurnProgress {
  finishReason: FinishReason | null;
  usage: CompletionUsage | undefined;
  /** `chatcmpl-…`, `msg_…` or `resp_…`. */
  responseId: string | undefined;
}

export function emptyResult(): TurnResult {
  return {
    text: '',
    toolCalls: [],
    finishReason: null,
    usage: undefined,
    responseId: undefined,
    model: undefined,
  };
}

/** A copy the caller may keep: the turn goes on mutating its own. */
export function progressOf(result: TurnResult): TurnProgress {
  return {
    text: result.text,
    toolCalls: result.toolCalls.map((call) => ({ ...call, function: { ...call.function } })),
    model: result.model,
  };
}

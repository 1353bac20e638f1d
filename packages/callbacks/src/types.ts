// The event a callback carries, generated from the spec by @modelgate/core (a type-only import; the
// build inlines it into our declarations, so @modelgate/core is not a runtime dependency).
import type { CallbackEvent } from '@modelgate/core';

export type { CallbackEvent };

/** Callback event types, one per final task status. */
export type CallbackEventType = CallbackEvent['type'];

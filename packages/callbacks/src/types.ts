// The events modelgate signs, generated from the spec by @modelgate/core (type-only imports; the
// build inlines them into our declarations, so @modelgate/core is not a runtime dependency).
import type { BudgetThresholdEvent, CallbackEvent, Webhooks } from '@modelgate/core';

export type { BudgetThresholdEvent, CallbackEvent };

/**
 * Any event modelgate POSTs: a video task's final status (`video.task.*`, a `CallbackEvent`) or a
 * budget alert (`budget.threshold`, a `BudgetThresholdEvent`). Branch on `type` to narrow `data`.
 */
export type WebhookEvent = Webhooks['body'];

/** Every event type: `video.task.completed` | `video.task.failed` | `video.task.cancelled` | `budget.threshold`. */
export type WebhookEventType = WebhookEvent['type'];

/** Video task callback event types, one per final task status. */
export type CallbackEventType = CallbackEvent['type'];

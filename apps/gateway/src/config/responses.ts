/** How long the gateway keeps Responses API state (for `previous_response_id`, retrieve, input items). */
import { z } from 'zod';
import { variable } from './section.js';

export interface ResponsesSettings {
  /** MODELGATE_RESPONSES_RETENTION_DAYS, default 30 (OpenAI keeps stored responses 30 days). */
  retentionDays: number;
  /** How often the sweep deletes expired responses: hourly, cheap against an indexed column. */
  sweepIntervalMs: number;
}

export const responsesVariables = {
  MODELGATE_RESPONSES_RETENTION_DAYS: variable.int({ min: 1, max: 3650 }),
};

export const responsesSection = z.object({ env: z.object(responsesVariables) }).transform(
  ({ env }): ResponsesSettings => ({
    retentionDays: env.MODELGATE_RESPONSES_RETENTION_DAYS ?? 30,
    sweepIntervalMs: 3_600_000,
  }),
);

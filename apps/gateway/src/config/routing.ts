/** How the text path routes: when a failing deployment is taken out, and how often model lists refresh. */
import { z } from 'zod';
import { variable } from './section.js';

export interface RoutingSettings {
  /**
   * MODELGATE_BREAKER_FAILURES (default 5) failures within MODELGATE_BREAKER_WINDOW_MS (30 s) take
   * a deployment out for MODELGATE_BREAKER_COOLDOWN_MS (30 s), then one trial request lets it back.
   */
  breaker: { failureThreshold: number; windowMs: number; cooldownMs: number };
  /** MODELGATE_MODELS_REFRESH_MS, default 10 min: pass-through mode fetches each provider's model list again. */
  modelsRefreshMs: number;
}

export const routingVariables = {
  MODELGATE_BREAKER_FAILURES: variable.int({ min: 1 }),
  MODELGATE_BREAKER_WINDOW_MS: variable.int({ min: 1 }),
  MODELGATE_BREAKER_COOLDOWN_MS: variable.int({ min: 1 }),
  MODELGATE_MODELS_REFRESH_MS: variable.int({ min: 1 }),
};

export const routingSection = z.object({ env: z.object(routingVariables) }).transform(
  ({ env }): RoutingSettings => ({
    breaker: {
      failureThreshold: env.MODELGATE_BREAKER_FAILURES ?? 5,
      windowMs: env.MODELGATE_BREAKER_WINDOW_MS ?? 30_000,
      cooldownMs: env.MODELGATE_BREAKER_COOLDOWN_MS ?? 30_000,
    },
    modelsRefreshMs: env.MODELGATE_MODELS_REFRESH_MS ?? 600_000,
  }),
);

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('routing settings', () => {
  it('defaults the breaker and the model-list refresh', () => {
    const { routing } = loadConfig({});
    expect(routing).toEqual({
      breaker: { failureThreshold: 5, windowMs: 30_000, cooldownMs: 30_000 },
      modelsRefreshMs: 600_000,
    });
  });

  it('reads each variable', () => {
    const { routing } = loadConfig({
      MODELGATE_BREAKER_FAILURES: '3',
      MODELGATE_BREAKER_WINDOW_MS: '1000',
      MODELGATE_BREAKER_COOLDOWN_MS: '2000',
      MODELGATE_MODELS_REFRESH_MS: '60000',
    });
    expect(routing).toEqual({
      breaker: { failureThreshold: 3, windowMs: 1000, cooldownMs: 2000 },
      modelsRefreshMs: 60_000,
    });
  });

  it('stops the start on a bad value, naming the variable', () => {
    expect(() => loadConfig({ MODELGATE_BREAKER_FAILURES: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_BREAKER_FAILURES: 'abc' })).toThrow(
      /MODELGATE_BREAKER_FAILURES/,
    );
    expect(() => loadConfig({ MODELGATE_MODELS_REFRESH_MS: '0' })).toThrow(
      /MODELGATE_MODELS_REFRESH_MS must be at least 1/,
    );
  });
});

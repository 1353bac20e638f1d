import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deliverySettingsFrom, nextDelayMs } from '../../src/callbacks/deliverer.js';
import { DEFAULT_RETRY_SCHEDULE_MS, readCallbackSettings } from '../../src/config/callbacks.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { durationMs } from '../../src/config/section.js';

const example = fileURLToPath(new URL('../../modelgate.example.yaml', import.meta.url));

describe('delivery settings', () => {
  it('defaults to the documented schedule (docs/design.md#callbacks) and a 10 s timeout', () => {
    const config = loadConfig({});
    const settings = deliverySettingsFrom(config);
    expect(settings.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(settings.retryScheduleMs).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
    expect(settings.timeoutMs).toBe(10_000);
    expect(config.callbacks.allowPrivate).toBe(false);
  });

  it('reads env overrides and the allow flag', () => {
    const config = loadConfig({
      MODELGATE_CALLBACK_RETRY_SCHEDULE: '50ms, 2s,1m',
      MODELGATE_CALLBACK_TIMEOUT: '1.5s',
      MODELGATE_CALLBACK_POLL_INTERVAL: '100',
      MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
    });
    const settings = deliverySettingsFrom(config);
    expect(settings.retryScheduleMs).toEqual([50, 2_000, 60_000]);
    expect(settings.timeoutMs).toBe(1_500);
    expect(settings.pollIntervalMs).toBe(100);
    expect(config.callbacks.allowPrivate).toBe(true);
  });

  it('accepts the example YAML file and refuses a bad section, naming the path', () => {
    const settings = deliverySettingsFrom(loadConfig({ MODELGATE_CONFIG: example }));
    expect(settings.retryScheduleMs.length).toBeGreaterThan(0);
    expect(() => readCallbackSettings({}, { retry_schedule: ['soon'] })).toThrow(
      /callbacks\.retry_schedule\.0/,
    );
    expect(() => readCallbackSettings({}, { timeuot: '1s' })).toThrow(ConfigError);
    expect(durationMs('5 parsecs')).toBeUndefined();
  });

  it('jitters each wait within ±20 % and stops after the last one', () => {
    const settings = { retryScheduleMs: [1_000, 10_000], jitter: 0.2 };
    expect(nextDelayMs(settings, 1, () => 0)).toBe(800);
    expect(nextDelayMs(settings, 1, () => 1)).toBe(1_200);
    expect(nextDelayMs(settings, 2, () => 0.5)).toBe(10_000);
    expect(nextDelayMs(settings, 3, () => 0.5)).toBeNull();
  });
});

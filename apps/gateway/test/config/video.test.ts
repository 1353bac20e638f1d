import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { readVideoSettings } from '../../src/config/video.js';

describe('video settings', () => {
  it('reads env over YAML and validates both', () => {
    const s = readVideoSettings(
      { MODELGATE_VIDEO_POLL_INTERVAL_MS: '250' },
      { poll_interval_ms: 900, lease_ms: 5000 },
    );
    expect(s).toMatchObject({
      pollIntervalMs: 250,
      leaseMs: 5000,
      maxInFlight: 32,
      providerConcurrency: 8,
    });
    expect(() => readVideoSettings({ MODELGATE_VIDEO_LEASE_MS: 'soon' }, {})).toThrow(ConfigError);
    expect(() => readVideoSettings({}, { pol_interval_ms: 1 })).toThrow(ConfigError);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { readProviderEnv } from '../../src/config/providers-env.js';
import { readVideoSettings } from '../../src/config/video.js';
import { videoProviderConfigs } from '../../src/video/providers/index.js';

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
    expect(() => videoProviderConfigs(readProviderEnv({}), { 'sora-2': 'x' })).toThrow(
      /upstream_models/,
    );
  });

  it('configures only providers with credentials, with upstream model overrides', () => {
    const env = readProviderEnv({
      ARK_API_KEY: 'k',
      KLING_ACCESS_KEY: 'a',
      KLING_SECRET_KEY: 's',
      VIDU_API_KEY: '',
    });
    const configs = videoProviderConfigs(env, { 'seedance-2': 'doubao-seedance-2-0-260128' });
    expect(Object.keys(configs).sort()).toEqual(['byteplus', 'kling']);
    expect(configs.byteplus).toEqual({
      baseUrl: 'https://ark.ap-southeast.bytepluses.com/api/v3',
      apiKey: 'k',
      upstreamModel: 'doubao-seedance-2-0-260128',
    });
    expect(configs.kling).toMatchObject({
      accessKey: 'a',
      secretKey: 's',
      baseUrl: 'https://api-singapore.klingai.com',
    });
  });
});

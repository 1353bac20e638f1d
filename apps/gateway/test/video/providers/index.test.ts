import { describe, expect, it } from 'vitest';
import { readProviderEnv } from '../../../src/config/providers-env.js';
import { videoProviderConfigs } from '../../../src/video/index.js';

describe('video providers', () => {
  it('refuses an upstream model override for a model that is not a video model', () => {
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

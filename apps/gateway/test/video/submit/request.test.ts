import { describe, expect, it } from 'vitest';
import { VIDEO_MODELS, videoModelList } from '../../../src/video/models.js';
import {
  classifyImageUrl,
  normalizeVideoRequest,
  priceUnits,
  VideoRequestError,
} from '../../../src/video/submit/request.js';

const CDN = 'http://localhost:8081';

function refusal(body: Record<string, unknown>): VideoRequestError {
  try {
    normalizeVideoRequest(body, CDN);
  } catch (error) {
    if (error instanceof VideoRequestError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('per-model validation', () => {
  it('applies each model defaults', () => {
    for (const spec of Object.values(VIDEO_MODELS)) {
      if (spec.imageInput === 'required') continue;
      const r = normalizeVideoRequest({ model: spec.id, prompt: 'a cat' }, CDN);
      expect(r).toMatchObject({
        duration: spec.defaultDuration,
        resolution: spec.defaultResolution,
        aspectRatio: spec.defaultAspectRatio,
      });
    }
  });

  it('names the field and lists the allowed values', () => {
    const d = refusal({ model: 'veo-3-1', prompt: 'x', duration: 5 });
    expect(d.param).toBe('duration');
    expect(d.message).toContain('4, 6, 8');
    expect(d.code).toBe('unsupported_value');
    const r = refusal({ model: 'kling-v3', prompt: 'x', resolution: '480p' });
    expect([r.param, r.message]).toEqual([
      'resolution',
      'kling-v3 supports resolution 720p, 1080p',
    ]);
    const a = refusal({ model: 'luma-ray-2', prompt: 'x', aspect_ratio: '2:3' });
    expect(a.param).toBe('aspect_ratio');
    expect(a.message).toContain('9:21');
  });

  it('refuses fields a model does not take and cross-field combinations', () => {
    expect(refusal({ model: 'grok-imagine-video', prompt: 'x', seed: 1 }).param).toBe('seed');
    expect(refusal({ model: 'seedance-2', prompt: 'x', negative_prompt: 'blur' }).param).toBe(
      'negative_prompt',
    );
    expect(refusal({ model: 'hailuo-2-3', prompt: 'x', generate_audio: true }).param).toBe(
      'generate_audio',
    );
    expect(
      refusal({ model: 'hailuo-2-3', prompt: 'x', duration: 10, resolution: '1080p' }).param,
    ).toBe('duration');
    expect(refusal({ model: 'veo-3-1', prompt: 'x', resolution: '1080p', duration: 6 }).param).toBe(
      'duration',
    );
    expect(refusal({ model: 'runway-gen4-turbo', prompt: 'x' })).toMatchObject({
      param: 'image_url',
      code: 'missing_field',
    });
    expect(
      refusal({ model: 'wan-2-6', prompt: 'x', last_frame_url: 'https://e.com/a.png' }).param,
    ).toBe('last_frame_url');
    expect(
      refusal({ model: 'kling-v3', prompt: 'x', last_frame_url: 'https://e.com/a.png' }).param,
    ).toBe('last_frame_url');
    expect(refusal({ model: 'kling-v3', prompt: 'x'.repeat(2501) }).param).toBe('prompt');
    expect(refusal({ model: 'kling-v3', prompt: 'x', colour: 'red' })).toMatchObject({
      param: 'colour',
      code: 'unknown_field',
    });
  });

  it('sorts image URLs into our files, external https, and refusals', () => {
    expect(classifyImageUrl(`${CDN}/files/file-abc123.png`, CDN, 'image_url')).toEqual({
      kind: 'file',
      fileId: 'file-abc123',
    });
    expect(classifyImageUrl('https://example.com/a.jpg', CDN, 'image_url')).toEqual({
      kind: 'external',
      url: 'https://example.com/a.jpg',
    });
    expect(() => classifyImageUrl('http://example.com/a.jpg', CDN, 'image_url')).toThrow(
      VideoRequestError,
    );
    expect(() => classifyImageUrl('file:///etc/passwd', CDN, 'image_url')).toThrow(
      VideoRequestError,
    );
    expect(() => classifyImageUrl(`${CDN}/videos/x.mp4`, CDN, 'image_url')).toThrow(
      VideoRequestError,
    );
    // Veo takes inline bytes only: an external URL cannot be passed on.
    expect(
      refusal({ model: 'veo-3-1', prompt: 'x', image_url: 'https://example.com/a.jpg' }).param,
    ).toBe('image_url');
  });

  it('prices duration × per-second price and lists capabilities in credits', () => {
    expect(priceUnits('kling-v3', '1080p', 10)).toBe(
      10 * VIDEO_MODELS['kling-v3']!.unitsPerSecond['1080p']!,
    );
    const listed = videoModelList();
    expect(listed).toHaveLength(9);
    const veo = listed.find((m) => m.id === 'veo-3-1')!;
    expect(veo).toMatchObject({
      object: 'model',
      type: 'video',
      video: {
        durations: [4, 6, 8],
        default_duration: 8,
        image_input: 'optional',
        last_frame: true,
        price_per_second: { '720p': 0.4 },
      },
    });
  });
});

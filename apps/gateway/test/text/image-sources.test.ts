/** Image URLs ⇄ messages image sources: data URLs carry the bytes, other URLs stay URLs. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { imageSourceOfUrl, urlOfImageSource } from '../../src/translate/images.js';

describe('imageSourceOfUrl', () => {
  it('a data URL of a type the messages format takes becomes a base64 source, and back', () => {
    const url = 'data:image/PNG;base64,iVBORw0KGgo=';
    const source = imageSourceOfUrl(url);
    expect(source).toEqual({ type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' });
    expect(urlOfImageSource(source)).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('a web address stays a URL source', () => {
    expect(imageSourceOfUrl('https://example.com/cat.jpg')).toEqual({
      type: 'url',
      url: 'https://example.com/cat.jpg',
    });
  });

  it('a data URL of another type is our 400 unsupported_value, not the upstream refusal', () => {
    let error: unknown;
    try {
      imageSourceOfUrl('data:image/bmp;base64,Qk0=');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'unsupported_value' });
  });
});

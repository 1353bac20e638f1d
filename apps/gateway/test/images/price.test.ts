/**
 * The money of an image request: the reservation is n images at the worst price of what was asked,
 * the charge each image delivered at the price of what the upstream says it made, never more.
 */
import { describe, expect, it } from 'vitest';
import { chargedUnits, reservedUnits } from '../../src/images/price.js';
import { normalizeImageRequest } from '../../src/images/request.js';
import { IMAGE_MODELS } from '../../src/models/images.js';

const request = (model: string, fields: Record<string, unknown> = {}) =>
  normalizeImageRequest(
    { operation: 'generate', body: { model, prompt: 'x', ...fields } },
    { spec: IMAGE_MODELS[model]!, deployments: [] },
  );

describe('image prices', () => {
  it('reserve the dearest price for auto, the asked one otherwise', () => {
    expect(reservedUnits(request('gpt-image-1', { n: 2 }))).toBe(2 * 250_000);
    expect(reservedUnits(request('gpt-image-1', { quality: 'low' }))).toBe(16_000);
    expect(reservedUnits(request('gpt-image-1', { size: '1024x1024' }))).toBe(167_000);
    expect(reservedUnits(request('dall-e-3', { quality: 'hd', size: '1792x1024' }))).toBe(120_000);
    // DALL·E's auto quality is standard, priced as such.
    expect(reservedUnits(request('dall-e-3', { quality: 'auto' }))).toBe(40_000);
    expect(reservedUnits(request('dall-e-2', { n: 10, size: '256x256' }))).toBe(160_000);
  });

  it('charge what was made, capped by what was reserved for each image asked', () => {
    const auto = request('gpt-image-1', { n: 3 });
    const made = (count: number, size?: string, quality?: string) =>
      chargedUnits(auto, { count, size, quality });
    expect(made(3, '1024x1024', 'medium')).toBe(3 * 42_000);
    expect(made(2, '1024x1024', 'medium')).toBe(2 * 42_000);
    // Nothing said, or a pair the table does not price: the reserved price.
    expect(made(3)).toBe(3 * 250_000);
    expect(made(1, '2048x2048', 'ultra')).toBe(250_000);
    // More images than asked are never charged.
    expect(made(5, '1024x1024', 'low')).toBe(3 * 11_000);
    const low = request('gpt-image-1', { quality: 'low', size: '1024x1024' });
    expect(chargedUnits(low, { count: 1, size: '1536x1024', quality: 'high' })).toBe(11_000);
  });

  it('fills the model’s defaults in', () => {
    expect(request('dall-e-3')).toMatchObject({
      n: 1,
      size: '1024x1024',
      quality: 'standard',
      responseFormat: 'url',
      passed: {},
    });
    expect(request('gpt-image-1', { user: 'u1', moderation: 'low' })).toMatchObject({
      size: 'auto',
      quality: 'auto',
      responseFormat: 'b64_json',
      passed: { user: 'u1', moderation: 'low' },
    });
  });
});

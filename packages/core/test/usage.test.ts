import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage } from '../src/usage.js';

describe('usage sums', () => {
  it('adds every figure and prices the summed units, keeping the grouping fields', () => {
    const into = { ...emptyUsage(), model: 'gpt-4o-mini' };
    const one = {
      ...emptyUsage(),
      model: 'other-model',
      requests: 2,
      input_tokens: 10,
      cache_read_tokens: 3,
      cache_write_5m_tokens: 4,
      cache_write_1h_tokens: 5,
      output_tokens: 20,
      video_seconds: 6,
      units: 100_001,
      cost: 0.100001,
    };
    const sum = addUsage(addUsage(into, one), one);
    expect(sum).toBe(into);
    expect(sum).toMatchObject({
      model: 'gpt-4o-mini',
      requests: 4,
      input_tokens: 20,
      cache_read_tokens: 6,
      cache_write_5m_tokens: 8,
      cache_write_1h_tokens: 10,
      output_tokens: 40,
      video_seconds: 12,
      units: 200_002,
      cost: 0.200002,
    });
  });

  it('starts every sum from zero', () => {
    const a = emptyUsage();
    addUsage(a, { ...emptyUsage(), units: 5 });
    expect(emptyUsage().units).toBe(0);
  });
});

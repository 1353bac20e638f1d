// The PollResult shapes every adapter answers with, so each adapter spells out only its wire words.
import type { PollResult } from './types.js';

/** A finished task: progress 100 and where to download it (`duration` when the provider says). */
export function completed(resultUrl: string, duration?: number): PollResult {
  return { state: 'completed', progress: 100, resultUrl, duration };
}

/**
 * A failed task with a code callers can branch on and a message naming the provider.
 *
 * @example
 * failed('expired', 'xai: the request expired');
 */
export function failed(code: string, message: string): PollResult {
  return { state: 'failed', error: { code, message } };
}

import { VideoRequestError } from './request-error.js';

const MAX_KEYS = 16;
const MAX_KEY_LENGTH = 64;
const MAX_VALUE_LENGTH = 512;

function checkEntry(key: string, value: unknown): void {
  if (key.length > MAX_KEY_LENGTH) {
    throw new VideoRequestError(
      `metadata.${key}`,
      `metadata keys are at most ${MAX_KEY_LENGTH} characters`,
      'out_of_range',
    );
  }
  if (typeof value !== 'string') {
    throw new VideoRequestError(
      `metadata.${key}`,
      'metadata values must be strings',
      'invalid_type',
    );
  }
  if (value.length > MAX_VALUE_LENGTH) {
    throw new VideoRequestError(
      `metadata.${key}`,
      `metadata values are at most ${MAX_VALUE_LENGTH} characters`,
      'out_of_range',
    );
  }
}

/**
 * A submit request's `metadata`: at most 16 keys of up to 64 characters, each with a string value
 * of up to 512 characters; undefined when absent or null.
 *
 * @example
 * readMetadata({ metadata: { order: '42' } }); // { order: '42' }
 */
export function readMetadata(body: Record<string, unknown>): Record<string, string> | undefined {
  const metadata = body.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw new VideoRequestError(
      'metadata',
      'metadata must be an object of strings',
      'invalid_type',
    );
  }
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > MAX_KEYS) {
    throw new VideoRequestError(
      'metadata',
      `metadata takes at most ${MAX_KEYS} keys`,
      'out_of_range',
    );
  }
  for (const [key, value] of entries) checkEntry(key, value);
  return metadata as Record<string, string>;
}

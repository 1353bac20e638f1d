// `modelgate embed`: the arguments, checked before any request is made.
import type { OptionValues } from './cli-options.js';

/** What `modelgate embed "<text>"` asked for. */
export interface EmbedCommand {
  name: 'embed';
  /** The text, or `-` to read it from stdin. */
  text: string;
  /** The embedding model; `undefined`: the first one `GET /v1/models` lists for the key. */
  model?: string;
}

/**
 * Reads the words after `embed` into an {@link EmbedCommand}, or says what is wrong.
 *
 * @example
 * ```ts
 * embedCommand(['a', 'red', 'fox'], { model: 'text-embedding-3-large' });
 * // → { name: 'embed', text: 'a red fox', model: 'text-embedding-3-large' }
 * ```
 */
export function embedCommand(
  rest: string[],
  values: OptionValues,
): EmbedCommand | { message: string } {
  // Unquoted words are joined, as for `chat`.
  const text = rest.join(' ').trim();
  if (text === '') return { message: 'usage: modelgate embed "<text>" [--model M] [--json]' };
  const command: EmbedCommand = { name: 'embed', text };
  if (values.model !== undefined) command.model = values.model;
  return command;
}

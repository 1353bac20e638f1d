/**
 * What the text service answers, free of any HTTP framework: the head's headers and either the
 * whole JSON body or a writer that streams the body into a {@link StreamSink}. The status is 200:
 * every refusal is a thrown ApiError. The text edge writes it (http/text-edge/).
 */
import type { StreamWriter } from '../translate/stream-sink.js';

export type TextAnswer =
  | { kind: 'json'; headers: Record<string, string>; body: Uint8Array }
  | { kind: 'stream'; headers: Record<string, string>; write: StreamWriter };

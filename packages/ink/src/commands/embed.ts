// `modelgate embed "<text>"`: the text's embedding, as a summary line and the vector.
import type { EmbeddingList, ModelgateClient } from '@modelgate/core';
import { isAbortError } from '../errors.js';
import { type CommandIO, ExitCode, readAll, reportFailure } from './io.js';

export interface EmbedCommandInput {
  client: ModelgateClient;
  /** The text, or `-` for stdin. */
  text: string;
  /** `undefined`: the first embedding model `GET /v1/models` lists for the key. */
  model?: string | undefined;
  json: boolean;
}

/** No embedding model to default to: shown as `no_embedding_model_error: …`. */
export class NoEmbeddingModelError extends Error {
  override name = 'NoEmbeddingModelError';

  constructor() {
    super('The gateway lists no embedding model for this key (see `modelgate models`).');
  }
}

async function firstEmbeddingModel(client: ModelgateClient, signal?: AbortSignal) {
  const { data } = await client.models.list({ signal });
  const model = data.find((m) => m.type === 'embedding');
  if (!model) throw new NoEmbeddingModelError();
  return model.id;
}

/** `text-embedding-3-small  1536 dimensions  4 tokens`, then the vector as a JSON array. */
function human(answer: EmbeddingList): string {
  const vector = answer.data[0]?.embedding ?? [];
  const length = Array.isArray(vector) ? vector.length : 0;
  const head = `${answer.model}  ${length} dimensions  ${answer.usage.prompt_tokens} tokens`;
  return `${head}\n${JSON.stringify(vector)}\n`;
}

/**
 * Embeds the text (stdin for `-`) and prints the model, the vector's length and the tokens billed,
 * then the vector; with `json` the gateway's answer.
 *
 * @example
 * ```ts
 * process.exitCode = await runEmbedCommand({ client, text: 'a red fox', json: false }, process);
 * ```
 */
export async function runEmbedCommand(input: EmbedCommandInput, io: CommandIO): Promise<number> {
  try {
    const text = input.text === '-' ? (await readAll(io.stdin)).trim() : input.text;
    if (text === '') {
      io.stderr.write('modelgate: nothing to embed (stdin was empty)\n');
      return ExitCode.usage;
    }
    const model = input.model ?? (await firstEmbeddingModel(input.client, io.signal));
    const answer = await input.client.embeddings.create(
      { model, input: text, encoding_format: 'float' },
      { signal: io.signal },
    );
    io.stdout.write(input.json ? `${JSON.stringify(answer, null, 2)}\n` : human(answer));
    return ExitCode.ok;
  } catch (error) {
    return isAbortError(error) ? ExitCode.interrupted : reportFailure(io, error);
  }
}

// `modelgate token create`: a new API key, made with the admin key.
import type { ModelgateClient } from '@modelgate/core';
import { formatCredits } from '../format.js';
import { unitsToCredits } from '../numbers.js';
import { type CommandIO, ExitCode, reportFailure } from './io.js';

export interface TokenCommandInput {
  /** A client that sends the admin key. */
  adminClient: ModelgateClient;
  name: string;
  /** Units (1 credit = 1,000,000 units), as the API takes them. */
  quota: number;
  json: boolean;
}

/**
 * Creates a key with `POST /v1/token` and prints its secret on stdout (shown only this once), a
 * summary on stderr; `json` prints the whole answer instead.
 *
 * @example
 * ```ts
 * const adminClient = createClient({ baseUrl, apiKey: process.env.MODELGATE_ADMIN_KEY });
 * await runTokenCreateCommand({ adminClient, name: 'ci', quota: 5_000_000, json: false }, process);
 * ```
 */
export async function runTokenCreateCommand(
  input: TokenCommandInput,
  io: CommandIO,
): Promise<number> {
  try {
    const token = await input.adminClient.tokens.create(
      { name: input.name, quota: input.quota },
      { signal: io.signal },
    );
    if (input.json) {
      io.stdout.write(`${JSON.stringify(token, null, 2)}\n`);
      return ExitCode.ok;
    }
    io.stdout.write(`${token.key}\n`);
    io.stderr.write(
      `created key ${token.id} "${token.name}" with ${formatCredits(unitsToCredits(token.quota))} credits (the key is shown only once)\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(io, error);
  }
}

// Where the CLI's settings come from: flags first, then MODELGATE_* environment variables, then defaults.

/** The gateway the CLI talks to when neither `--base-url` nor `MODELGATE_BASE_URL` is given. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';
/** The chat model used when neither `--model` nor `MODELGATE_MODEL` is given. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

/** Resolved settings of one CLI run. */
export interface CliConfig {
  /** The gateway's address without a trailing slash, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; `undefined` lets the gateway answer 401. */
  apiKey: string | undefined;
  /** The chat model for new messages. */
  model: string;
}

/** The settings a user may give as flags (`undefined` = not given). */
export interface ConfigFlags {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
}

/**
 * Merges flags over `MODELGATE_BASE_URL`, `MODELGATE_API_KEY` and `MODELGATE_MODEL` over the defaults.
 * Empty strings count as not given, so `MODELGATE_MODEL= modelgate` still gets the default model.
 *
 * @example
 * ```ts
 * const config = loadConfig({ model: 'gpt-4o' }, process.env);
 * // → { baseUrl: 'http://localhost:8080', apiKey: process.env.MODELGATE_API_KEY, model: 'gpt-4o' }
 * ```
 */
export function loadConfig(
  flags: ConfigFlags = {},
  env: Record<string, string | undefined> = process.env,
): CliConfig {
  const baseUrl = firstGiven(flags.baseUrl, env.MODELGATE_BASE_URL) ?? DEFAULT_BASE_URL;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: firstGiven(flags.apiKey, env.MODELGATE_API_KEY),
    model: firstGiven(flags.model, env.MODELGATE_MODEL) ?? DEFAULT_MODEL,
  };
}

function firstGiven(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '')?.trim();
}

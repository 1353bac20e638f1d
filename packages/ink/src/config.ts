// Where the CLI's settings come from, first match wins: flags, then MODELGATE_* environment
// variables, then the selected profile of the config file, then defaults.
import type { ConfigFile, Profile } from './config-file.js';

/** The gateway the CLI talks to when no flag, variable or profile gives one. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';
/** The chat model used when no flag, variable or profile gives one. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

/** Resolved settings of one CLI run. */
export interface CliConfig {
  /** The gateway's address without a trailing slash, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; `undefined` lets the gateway answer 401. */
  apiKey: string | undefined;
  /** The admin key, used only by `modelgate token create`. */
  adminKey?: string | undefined;
  /** The chat model for new messages. */
  model: string;
}

/** The settings a user may give as flags (`undefined` = not given). */
export interface ConfigFlags {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  adminKey?: string | undefined;
  model?: string | undefined;
  /** `--profile`: which profile of the config file to use. */
  profile?: string | undefined;
}

/**
 * Merges flags over `MODELGATE_BASE_URL`, `MODELGATE_API_KEY`, `MODELGATE_ADMIN_KEY` and
 * `MODELGATE_MODEL`, over the profile's settings, over the defaults. Empty strings count as not
 * given, so `MODELGATE_MODEL= modelgate` still gets the profile's (or the default) model.
 *
 * @example
 * ```ts
 * const config = loadConfig({ model: 'gpt-4o' }, process.env, { baseUrl: 'https://gw.example.com' });
 * // → { baseUrl: 'https://gw.example.com', apiKey: process.env.MODELGATE_API_KEY, model: 'gpt-4o', … }
 * ```
 */
export function loadConfig(
  flags: ConfigFlags = {},
  env: Record<string, string | undefined> = process.env,
  profile: Profile = {},
): CliConfig {
  const baseUrl =
    firstGiven(flags.baseUrl, env.MODELGATE_BASE_URL, profile.baseUrl) ?? DEFAULT_BASE_URL;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: firstGiven(flags.apiKey, env.MODELGATE_API_KEY, profile.apiKey),
    adminKey: firstGiven(flags.adminKey, env.MODELGATE_ADMIN_KEY, profile.adminKey),
    model: firstGiven(flags.model, env.MODELGATE_MODEL, profile.model) ?? DEFAULT_MODEL,
  };
}

/** The profile to use: `--profile`, else `MODELGATE_PROFILE`, else the file's `current`. */
export function selectedProfileName(
  flags: ConfigFlags,
  env: Record<string, string | undefined>,
  file: ConfigFile,
): string | undefined {
  return firstGiven(flags.profile, env.MODELGATE_PROFILE, file.current);
}

/**
 * The selected profile's settings; an unknown name is an error only when the user named it
 * (a `current` pointing at a deleted profile just means no profile).
 */
export function selectProfile(
  flags: ConfigFlags,
  env: Record<string, string | undefined>,
  file: ConfigFile,
): { ok: true; name: string | undefined; profile: Profile } | { ok: false; message: string } {
  const name = selectedProfileName(flags, env, file);
  if (name === undefined) return { ok: true, name, profile: {} };
  const profile = file.profiles[name];
  if (profile) return { ok: true, name, profile };
  const named = firstGiven(flags.profile, env.MODELGATE_PROFILE) !== undefined;
  if (!named) return { ok: true, name: undefined, profile: {} };
  const known = Object.keys(file.profiles);
  return {
    ok: false,
    message: `no profile "${name}" in the config file (${known.length > 0 ? `profiles: ${known.join(', ')}` : 'it has none: modelgate config set baseUrl URL --profile NAME'})`,
  };
}

function firstGiven(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== '')?.trim();
}

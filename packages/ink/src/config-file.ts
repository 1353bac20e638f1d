// The config file: named profiles, one per gateway, and which one is in use.
// `$XDG_CONFIG_HOME/modelgate/config.json` (default `~/.config/modelgate/config.json`), written 0600
// because it holds API keys.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The settings a profile can hold; the same names as the flags, in camelCase. */
export const PROFILE_KEYS = ['baseUrl', 'apiKey', 'adminKey', 'model'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

/** One gateway's settings; every key is optional. */
export type Profile = Partial<Record<ProfileKey, string>>;

/** The whole file. */
export interface ConfigFile {
  /** The profile used when neither `--profile` nor `MODELGATE_PROFILE` names one. */
  current?: string | undefined;
  profiles: Record<string, Profile>;
}

/** A config file that is not JSON or not shaped like {@link ConfigFile}. */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/**
 * Where the config file lives for this environment.
 *
 * @example
 * ```ts
 * configFilePath({ XDG_CONFIG_HOME: '/tmp/cfg' }); // → '/tmp/cfg/modelgate/config.json'
 * ```
 */
export function configFilePath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'modelgate', 'config.json');
}

/** Reads the file; a missing file is an empty one. Throws {@link ConfigFileError} when it is malformed. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { profiles: {} };
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(`${path} is not valid JSON (${(error as Error).message})`);
  }
  return checkShape(data, path);
}

/** Writes the file (and its directory), readable by the owner only. */
export function writeConfigFile(path: string, file: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** True for `baseUrl`, `apiKey`, `adminKey`, `model`. */
export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

function checkShape(data: unknown, path: string): ConfigFile {
  if (!isRecord(data)) throw new ConfigFileError(`${path}: expected a JSON object`);
  const { current, profiles = {} } = data;
  if (current !== undefined && typeof current !== 'string') {
    throw new ConfigFileError(`${path}: "current" must be a string`);
  }
  if (!isRecord(profiles)) throw new ConfigFileError(`${path}: "profiles" must be an object`);
  const checked: Record<string, Profile> = {};
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isRecord(profile))
      throw new ConfigFileError(`${path}: profile "${name}" must be an object`);
    const settings: Profile = {};
    for (const [key, value] of Object.entries(profile)) {
      if (!isProfileKey(key) || typeof value !== 'string') {
        throw new ConfigFileError(
          `${path}: profile "${name}": unknown key "${key}" or a value that is not a string (keys: ${PROFILE_KEYS.join(', ')})`,
        );
      }
      settings[key] = value;
    }
    checked[name] = settings;
  }
  return { current, profiles: checked };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

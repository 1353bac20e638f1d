// `modelgate config set|get|use|list`: the profiles of the config file.
import type { CliConfig, ConfigFlags } from '../config.js';
import { selectedProfileName } from '../config.js';
import { type ConfigFile, type ProfileKey, writeConfigFile } from '../config-file.js';
import { type CommandIO, ExitCode } from './io.js';

export interface ConfigCommandInput {
  path: string;
  file: ConfigFile;
  flags: ConfigFlags;
  env: Record<string, string | undefined>;
}

/** The profile `set` writes to: the selected one, else `default` (which then becomes current). */
function targetProfile(input: ConfigCommandInput): string {
  return selectedProfileName(input.flags, input.env, input.file) ?? 'default';
}

/**
 * `config set <key> <value>`: writes one setting into the selected profile (`--profile`,
 * `MODELGATE_PROFILE`, the current one, else `default`), creating the file and the profile.
 *
 * @example
 * ```ts
 * runConfigSet({ path, file, flags: { profile: 'staging' }, env: {} }, 'baseUrl', 'https://gw.example.com', process);
 * ```
 */
export function runConfigSet(
  input: ConfigCommandInput,
  key: ProfileKey,
  value: string,
  io: CommandIO,
): number {
  const name = targetProfile(input);
  const profiles = {
    ...input.file.profiles,
    [name]: { ...input.file.profiles[name], [key]: value },
  };
  writeConfigFile(input.path, { current: input.file.current ?? name, profiles });
  io.stderr.write(`modelgate: ${key} set in profile "${name}" (${input.path})\n`);
  return ExitCode.ok;
}

/** `config get <key>`: the value as this run resolves it (flags > env > profile > default). */
export function runConfigGet(config: CliConfig, key: ProfileKey, io: CommandIO): number {
  const value = config[key];
  if (value === undefined) {
    io.stderr.write(`modelgate: ${key} is not set\n`);
    return ExitCode.failed;
  }
  io.stdout.write(`${value}\n`);
  return ExitCode.ok;
}

/** `config use <profile>`: makes an existing profile the default one. */
export function runConfigUse(input: ConfigCommandInput, profile: string, io: CommandIO): number {
  if (!input.file.profiles[profile]) {
    io.stderr.write(`modelgate: no profile "${profile}" in ${input.path}\n`);
    return ExitCode.usage;
  }
  writeConfigFile(input.path, { ...input.file, current: profile });
  io.stderr.write(`modelgate: using profile "${profile}"\n`);
  return ExitCode.ok;
}

/** `config list`: one profile a line, `* ` before the one in use; keys are never printed. */
export function runConfigList(input: ConfigCommandInput, io: CommandIO): number {
  const selected = selectedProfileName(input.flags, input.env, input.file);
  const names = Object.keys(input.file.profiles).sort();
  const width = Math.max(0, ...names.map((name) => name.length));
  const lines = names.map((name) => {
    const profile = input.file.profiles[name] ?? {};
    const marker = name === selected ? '* ' : '  ';
    return `${marker}${name.padEnd(width)}  ${profile.baseUrl ?? '-'}  ${profile.model ?? '-'}`.trimEnd();
  });
  if (lines.length === 0) io.stderr.write(`modelgate: no profiles yet (${input.path})\n`);
  else io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}

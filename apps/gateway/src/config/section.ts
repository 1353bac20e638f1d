/**
 * How every section of the configuration is read: one zod schema over its environment variables
 * (and, where it has one, the YAML file's section of the same name), parsed once at start. A bad
 * value stops the start with a ConfigError that names the variable, what it takes and what it got;
 * a bad YAML value names its path in the file.
 *
 * @example
 * const limits = z.object({
 *   env: z.object({ MODELGATE_REDIS_TIMEOUT_MS: variable.int({ min: 1 }) }),
 * }).transform(({ env }) => ({ redisTimeoutMs: env.MODELGATE_REDIS_TIMEOUT_MS ?? 250 }));
 * readSection('limits', limits, { env: { MODELGATE_REDIS_TIMEOUT_MS: '0' } });
 * // throws ConfigError: MODELGATE_REDIS_TIMEOUT_MS must be at least 1 (got "0")
 */
import { z } from 'zod';

/** A configuration the gateway refuses to start with; main.ts prints it and exits 1. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** What a section is parsed from: the environment, and its YAML section when it has one. */
export interface SectionInput {
  env: Env;
  file?: unknown;
}

/** An empty variable is an unset one (`PORT= node main.js`). */
const unsetWhenEmpty = (value: unknown) => (value === '' ? undefined : value);

/** A variable's schema: its text in, the typed value out, undefined when unset. */
function envVariable<T>(schema: z.ZodType<T, string>) {
  return z.preprocess(unsetWhenEmpty, schema.optional());
}

const FLAG_WORDS: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

/**
 * A yes/no word: `1` or `true`, `0` or `false`; undefined for anything else.
 * @example flagValue('true'); // true
 */
export function flagValue(raw: string): boolean | undefined {
  return FLAG_WORDS[raw.trim().toLowerCase()];
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * "250ms", "5s", "30m", "2h", or a bare number of milliseconds; undefined when it is none of them.
 * @example durationMs('1.5s'); // 1500
 */
export function durationMs(value: string | number): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  return match ? Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!) : undefined;
}

/** A duration in the YAML file: a number of milliseconds or a string such as "5s". */
export const yamlDuration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = durationMs(value);
  if (ms !== undefined) return ms;
  ctx.issues.push({ code: 'custom', message: DURATION_WORDS, input: value });
  return z.NEVER;
});

const DURATION_WORDS = 'a duration (e.g. 500ms, 5s, 30m, 2h)';

/** The schemas of one environment variable, by what it takes. */
export const variable = {
  /** Free text. */
  text: () => envVariable(z.string()),

  /** A whole number within bounds. */
  int: ({ min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}) =>
    envVariable(
      z
        .string()
        .trim()
        .regex(/^\d+$/, { error: min > 0 ? `a whole number of at least ${min}` : 'a whole number' })
        .transform(Number)
        .pipe(
          z
            .number()
            .min(min, { error: `at least ${min}` })
            .max(max, { error: `at most ${max}` }),
        ),
    ),

  /** `1`/`true` or `0`/`false`. */
  flag: () =>
    envVariable(
      z.string().transform((raw, ctx) => {
        const value = flagValue(raw);
        if (value !== undefined) return value;
        ctx.issues.push({ code: 'custom', message: '1/true or 0/false', input: raw });
        return z.NEVER;
      }),
    ),

  /** An absolute URL with one of the protocols (`['redis:', 'rediss:']`); the text as given. */
  url: (protocols: string[]) =>
    envVariable(
      z.string().refine((raw) => URL.canParse(raw) && protocols.includes(new URL(raw).protocol), {
        error: `a ${protocols.map((p) => `${p}//`).join(' or ')} URL`,
      }),
    ),

  /** One of the words. */
  choice: <const W extends string>(words: readonly W[]) =>
    envVariable(
      z
        .string()
        .transform((raw) => raw.trim().toLowerCase())
        .pipe(z.enum(words, { error: `one of ${words.join(', ')}` })),
    ),

  /** A duration: "250ms", "5s", "30m", "2h", or a bare number of milliseconds. */
  duration: () =>
    envVariable(
      z.string().transform((raw, ctx) => {
        const ms = durationMs(raw);
        if (ms !== undefined) return ms;
        ctx.issues.push({ code: 'custom', message: DURATION_WORDS, input: raw });
        return z.NEVER;
      }),
    ),

  /** Durations separated by commas ("5s,5m,30m"). */
  durations: () =>
    envVariable(
      z.string().transform((raw, ctx) => {
        const parts = raw.split(',').filter((part) => part.trim() !== '');
        const values = parts.map(durationMs);
        if (values.every((ms) => ms !== undefined)) return values as number[];
        ctx.issues.push({
          code: 'custom',
          message: `${DURATION_WORDS}, comma-separated`,
          input: raw,
        });
        return z.NEVER;
      }),
    ),
};

/** The YAML value of a section: an empty `video:` is no section. */
export function yamlSection<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === null ? undefined : value), schema.optional());
}

const SECRET_BEARING = /KEY|SECRET|TOKEN|PASSWORD|_URL$/;

/** Words for one problem: the variable, what it takes and what it got; or the YAML path. */
function describe(name: string, issue: z.core.$ZodIssue, input: SectionInput): string {
  const [where, key, ...rest] = issue.path.map(String);
  if (where === 'file') {
    const path = [name, key, ...rest].filter((part) => part !== undefined).join('.');
    return `MODELGATE_CONFIG: ${path}: ${issue.message}`;
  }
  if (key === undefined) return issue.message;
  // A key, a secret or a URL with credentials in it is not repeated into logs.
  const got = SECRET_BEARING.test(key) ? '' : ` (got "${input.env[key]}")`;
  return `${key} must be ${issue.message}${got}`;
}

/**
 * Parses one section, or throws a ConfigError naming the variable (or the YAML path) and what it
 * takes. The section's schema may itself throw a ConfigError for a rule across variables.
 *
 * @example
 * const video = readSection('video', videoSection, { env: process.env, file: yaml.video });
 */
export function readSection<S extends z.ZodType>(
  name: string,
  schema: S,
  input: SectionInput,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ConfigError(describe(name, parsed.error.issues[0]!, input));
}

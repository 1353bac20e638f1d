/**
 * Configuration: environment variables (docs/design.md#running) plus an optional YAML file
 * (MODELGATE_CONFIG), read once at start. Each section is one zod schema over its variables
 * (`section.ts` says how): server, database, storage, limits, routing, video, callbacks, responses, budgets. A bad value is a
 * ConfigError naming the variable or YAML path, and main.ts exits with code 1.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type BudgetSettings, budgetSection, budgetVariables } from './budgets.js';
import { type CallbackSettings, callbackSection, callbackVariables } from './callbacks.js';
import { type DatabaseSettings, databaseSection, databaseVariables } from './database.js';
import { type LimitsSettings, limitsSection, limitsVariables } from './limits.js';
import { type ProviderEnv, readProviderEnv } from './providers-env.js';
import { type ResponsesSettings, responsesSection, responsesVariables } from './responses.js';
import { type RoutingSettings, routingSection, routingVariables } from './routing.js';
import { ConfigError, type Env, readSection } from './section.js';
import { type ServerSettings, serverSection, serverVariables } from './server.js';
import { type StorageSettings, storageSection, storageVariables } from './storage.js';
import { parseTextModelConfig } from './text-models.js';
import { type VideoSettings, videoSection, videoVariables } from './video.js';

export { ConfigError } from './section.js';

/**
 * The YAML file. `providers` and `models` are validated by their schema in text-models.ts;
 * `video` and `callbacks` by their sections here. Unknown top-level keys are refused so typos surface.
 */
export const configFileSchema = z
  .object({
    providers: z.unknown().optional(),
    models: z.unknown().optional(),
    video: z.unknown().optional(),
    callbacks: z.unknown().optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

/**
 * The environment variables of each section that reads its variables through a schema (the README's
 * configuration table names each of them). Provider credentials are read by `providers-env.ts`.
 */
export const CONFIG_VARIABLES = {
  server: serverVariables,
  database: databaseVariables,
  storage: storageVariables,
  limits: limitsVariables,
  routing: routingVariables,
  video: videoVariables,
  callbacks: callbackVariables,
  responses: responsesVariables,
  budgets: budgetVariables,
};

export interface Config extends ServerSettings, DatabaseSettings, StorageSettings, LimitsSettings {
  /** The text path's circuit breaker and model-list refresh (MODELGATE_BREAKER_*, MODELGATE_MODELS_REFRESH_MS). */
  routing: RoutingSettings;
  /** The video engine's settings (MODELGATE_VIDEO_*, YAML `video:`). */
  video: VideoSettings;
  /** Callback delivery's settings (MODELGATE_CALLBACK_*, YAML `callbacks:`). */
  callbacks: CallbackSettings;
  /** Responses API state retention (MODELGATE_RESPONSES_RETENTION_DAYS). */
  responses: ResponsesSettings;
  /** The time zone budget periods start in (MODELGATE_BUDGET_TIME_ZONE). */
  budgets: BudgetSettings;
  /** MODELGATE_CONFIG path, or null. */
  configPath: string | null;
  /** The parsed YAML (empty object without a file). */
  file: ConfigFile;
  /** Provider keys and base URLs from the environment. */
  providers: ProviderEnv;
  /** True when no provider is configured (no provider key in env, no `providers` in YAML). */
  demoMode: boolean;
  /** The in-process simulator's URL in demo mode (set at start), else null. */
  simulatorUrl: string | null;
  /** Raw environment, for the variables the text features still read themselves. */
  env: Env;
}

/** Read and validate the YAML config file. */
export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: ${path} is not valid YAML: ${(err as Error).message}`);
  }
  const result = configFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const detail =
      issue.code === 'unrecognized_keys'
        ? `unknown key(s) ${issue.keys.join(', ')}; allowed: providers, models, video, callbacks`
        : issue.message;
    throw new ConfigError(`MODELGATE_CONFIG: ${path}: ${where}: ${detail}`);
  }
  // Validate the text sections now so a bad file fails before anything starts (the text features
  // parse them again when they build their catalogue).
  try {
    parseTextModelConfig(result.data);
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: ${path}: ${(err as Error).message}`);
  }
  return result.data;
}

function hasYamlProviders(file: ConfigFile): boolean {
  const providers = file.providers;
  if (providers === undefined || providers === null) return false;
  return Array.isArray(providers) ? providers.length > 0 : Object.keys(providers).length > 0;
}

/**
 * Build the Config from an environment (default `process.env`): every section parsed, or a
 * ConfigError for the first bad value.
 *
 * @example
 * const config = loadConfig({ ...process.env, PORT: '0' });
 */
export function loadConfig(env: Env = process.env): Config {
  const configPath = env.MODELGATE_CONFIG ? resolve(env.MODELGATE_CONFIG) : null;
  const file = configPath ? loadConfigFile(configPath) : {};
  let providers: ProviderEnv;
  try {
    providers = readProviderEnv(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return {
    ...readSection('server', serverSection, { env }),
    ...readSection('database', databaseSection, { env }),
    ...readSection('storage', storageSection, { env }),
    ...readSection('limits', limitsSection, { env }),
    routing: readSection('routing', routingSection, { env }),
    video: readSection('video', videoSection, { env, file: file.video }),
    callbacks: readSection('callbacks', callbackSection, { env, file: file.callbacks }),
    responses: readSection('responses', responsesSection, { env }),
    budgets: readSection('budgets', budgetSection, { env }),
    configPath,
    file,
    providers,
    demoMode: !providers.anyConfigured && !hasYamlProviders(file),
    simulatorUrl: null,
    env,
  };
}

/**
 * Which upstream text providers the gateway can reach, as specs (kind, base URL, key, headers,
 * timeouts): from the provider env keys, resolved credentials, or the YAML `providers` section.
 */

import { isEnvProviderName, type TextProviderConfig } from '../config/text-models.js';
import {
  DEFAULT_TIMEOUTS,
  type ProviderKind,
  type TextProvider,
  type TextProviderSpec,
} from '../providers/text/index.js';

export const REAL_BASE_URL: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

const ENV_NAMES: Record<ProviderKind, { key: string; base: string }> = {
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', base: 'ANTHROPIC_BASE_URL' },
};

export type ProviderCredentials = Partial<
  Record<ProviderKind, { apiKey: string | null; baseUrl: string }>
>;

/**
 * Providers from env keys (OPENAI_API_KEY / ANTHROPIC_API_KEY + *_BASE_URL) or resolved
 * credentials, by kind.
 *
 * @example
 * envProviderSpecs({ OPENAI_API_KEY: 'sk-…' }, undefined, false).get('openai')?.baseUrl; // 'https://api.openai.com/v1'
 */
export function envProviderSpecs(
  env: Record<string, string | undefined>,
  credentials: ProviderCredentials | undefined,
  demo: boolean,
): Map<ProviderKind, TextProviderSpec> {
  const specs = new Map<ProviderKind, TextProviderSpec>();
  for (const kind of ['openai', 'anthropic'] as const) {
    const given = credentials?.[kind];
    const apiKey = given ? given.apiKey : env[ENV_NAMES[kind].key]?.trim();
    if (!apiKey) continue;
    specs.set(kind, {
      name: demo ? `simulator-${kind}` : kind,
      kind,
      baseUrl: given?.baseUrl || env[ENV_NAMES[kind].base] || REAL_BASE_URL[kind],
      apiKey,
      timeouts: DEFAULT_TIMEOUTS,
    });
  }
  return specs;
}

/**
 * A YAML provider section as a spec, or null when it has no key (an error only if a model
 * deploys on it).
 *
 * @example
 * configuredProviderSpec('local', { kind: 'openai', base_url: 'http://127.0.0.1:8000/v1', api_key: 'k' }, {});
 */
export function configuredProviderSpec(
  name: string,
  config: TextProviderConfig,
  env: Record<string, string | undefined>,
): TextProviderSpec | null {
  const envNames = ENV_NAMES[config.kind];
  const apiKey =
    config.api_key ??
    (config.api_key_env ? env[config.api_key_env] : undefined) ??
    (isEnvProviderName(name) ? env[envNames.key] : undefined);
  if (!apiKey) return null;
  return {
    name,
    kind: config.kind,
    baseUrl:
      config.base_url ??
      (isEnvProviderName(name) ? env[envNames.base] : undefined) ??
      REAL_BASE_URL[config.kind],
    apiKey,
    headers: config.headers,
    timeouts: {
      connectMs: config.timeouts?.connect_ms ?? DEFAULT_TIMEOUTS.connectMs,
      firstByteMs: config.timeouts?.first_byte_ms ?? DEFAULT_TIMEOUTS.firstByteMs,
      idleMs: config.timeouts?.idle_ms ?? DEFAULT_TIMEOUTS.idleMs,
    },
  };
}

/** Closes each provider once (one may serve several models), ignoring close errors. */
export async function closeProviders(providers: Iterable<TextProvider>): Promise<void> {
  await Promise.all([...new Set(providers)].map((p) => p.close().catch(() => undefined)));
}

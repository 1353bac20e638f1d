/**
 * Provider credentials and base URLs from the environment (the provider table of
 * apps/gateway/README.md#environment-variables). Base URLs default to the providers' real
 * endpoints; in demo mode startGateway points them at the simulator.
 */

export interface ProviderCredentials {
  apiKey: string | null;
  baseUrl: string;
  /** True when the key came from the environment. */
  configured: boolean;
}

export interface KlingCredentials {
  accessKey: string | null;
  secretKey: string | null;
  baseUrl: string;
  configured: boolean;
}

export interface ProviderEnv {
  openai: ProviderCredentials;
  anthropic: ProviderCredentials;
  xai: ProviderCredentials;
  gemini: ProviderCredentials;
  kling: KlingCredentials;
  byteplus: ProviderCredentials;
  minimax: ProviderCredentials;
  dashscope: ProviderCredentials;
  vidu: ProviderCredentials;
  runway: ProviderCredentials;
  luma: ProviderCredentials;
  /** Black Forest Labs (FLUX image models). */
  bfl: ProviderCredentials;
  /** Any provider key set at all. */
  anyConfigured: boolean;
}

type SimpleProvider = Exclude<keyof ProviderEnv, 'kling' | 'anyConfigured'>;

/** One provider's row: [key env, base env, real base, base path under the simulator]. */
type ProviderRow = [string, string, string, string];

/** provider → its row. */
export const PROVIDER_TABLE: Record<SimpleProvider, ProviderRow> = {
  openai: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'https://api.openai.com/v1', '/openai/v1'],
  anthropic: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'https://api.anthropic.com', '/anthropic'],
  xai: ['XAI_API_KEY', 'XAI_BASE_URL', 'https://api.x.ai/v1', '/xai/v1'],
  gemini: [
    'GEMINI_API_KEY',
    'GEMINI_BASE_URL',
    'https://generativelanguage.googleapis.com/v1beta',
    '/gemini/v1beta',
  ],
  byteplus: [
    'ARK_API_KEY',
    'ARK_BASE_URL',
    'https://ark.ap-southeast.bytepluses.com/api/v3',
    '/byteplus/api/v3',
  ],
  minimax: ['MINIMAX_API_KEY', 'MINIMAX_BASE_URL', 'https://api.minimax.io', '/minimax'],
  dashscope: [
    'DASHSCOPE_API_KEY',
    'DASHSCOPE_BASE_URL',
    'https://dashscope-intl.aliyuncs.com/api/v1',
    '/dashscope/api/v1',
  ],
  vidu: ['VIDU_API_KEY', 'VIDU_BASE_URL', 'https://api.vidu.com', '/vidu'],
  runway: ['RUNWAY_API_KEY', 'RUNWAY_BASE_URL', 'https://api.dev.runwayml.com', '/runway'],
  luma: [
    'LUMA_API_KEY',
    'LUMA_BASE_URL',
    'https://api.lumalabs.ai/dream-machine/v1',
    '/luma/dream-machine/v1',
  ],
  // ── images (issue 23): Black Forest Labs' FLUX models ──
  bfl: ['BFL_API_KEY', 'BFL_BASE_URL', 'https://api.bfl.ai/v1', '/bfl/v1'],
};

export const KLING_REAL_BASE = 'https://api-singapore.klingai.com';
export const KLING_SIM_PATH = '/kling';
/** The simulator's default Kling credentials (demo mode signs its JWTs with these). */
export const KLING_SIM_ACCESS_KEY = 'sim-access-key';
export const KLING_SIM_SECRET_KEY = 'sim-secret-key';

const trimSlash = (s: string) => s.replace(/\/+$/, '');

/** A provider base URL from the environment: absolute http(s), or the start stops naming it. */
function baseUrlFrom(variable: string, value: string | undefined, fallback: string): string {
  const raw = value?.trim();
  if (!raw) return fallback;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${variable} must be an absolute http(s) URL (got "${raw}").`);
  }
  return trimSlash(raw);
}

/**
 * Every single-key provider's credentials, built from its table row. Spelled out key by key so
 * the compiler checks that no provider is missing.
 */
function eachProvider(
  make: (row: ProviderRow) => ProviderCredentials,
): Record<SimpleProvider, ProviderCredentials> {
  const t = PROVIDER_TABLE;
  return {
    openai: make(t.openai),
    anthropic: make(t.anthropic),
    xai: make(t.xai),
    gemini: make(t.gemini),
    byteplus: make(t.byteplus),
    minimax: make(t.minimax),
    dashscope: make(t.dashscope),
    vidu: make(t.vidu),
    runway: make(t.runway),
    luma: make(t.luma),
    bfl: make(t.bfl),
  };
}

/** Throws (a plain Error; loadConfig reports it as a ConfigError) on a malformed base URL. */
export function readProviderEnv(env: Record<string, string | undefined>): ProviderEnv {
  const simple = eachProvider(([keyVar, baseVar, realBase]) => {
    const apiKey = env[keyVar]?.trim() || null;
    return {
      apiKey,
      baseUrl: baseUrlFrom(baseVar, env[baseVar], realBase),
      configured: apiKey !== null,
    };
  });
  const accessKey = env.KLING_ACCESS_KEY?.trim() || null;
  const secretKey = env.KLING_SECRET_KEY?.trim() || null;
  const kling: KlingCredentials = {
    accessKey,
    secretKey,
    baseUrl: baseUrlFrom('KLING_BASE_URL', env.KLING_BASE_URL, KLING_REAL_BASE),
    configured: accessKey !== null && secretKey !== null,
  };
  const anyConfigured = kling.configured || Object.values(simple).some((p) => p.configured);
  return { ...simple, kling, anyConfigured };
}

/**
 * Demo mode: every provider points at the simulator with placeholder credentials.
 *
 * @example
 * config.providers = simulatorProviderEnv('http://127.0.0.1:9090');
 */
export function simulatorProviderEnv(simUrl: string): ProviderEnv {
  const base = trimSlash(simUrl);
  const simple = eachProvider(([, , , simPath]) => ({
    apiKey: 'sim-key',
    baseUrl: `${base}${simPath}`,
    configured: true,
  }));
  const kling: KlingCredentials = {
    accessKey: KLING_SIM_ACCESS_KEY,
    secretKey: KLING_SIM_SECRET_KEY,
    baseUrl: `${base}${KLING_SIM_PATH}`,
    configured: true,
  };
  return { ...simple, kling, anyConfigured: true };
}

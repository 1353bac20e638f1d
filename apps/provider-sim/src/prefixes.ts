/**
 * Where each provider lives in the simulator: append the prefix to the simulator URL to get the
 * base URL an adapter is configured with (apps/gateway layout, "Provider base URLs").
 */
export const PROVIDER_PREFIXES = {
  openai: '/openai/v1',
  anthropic: '/anthropic',
  xai: '/xai/v1',
  gemini: '/gemini/v1beta',
  kling: '/kling',
  byteplus: '/byteplus/api/v3',
  minimax: '/minimax',
  dashscope: '/dashscope/api/v1',
  vidu: '/vidu',
  runway: '/runway',
  luma: '/luma/dream-machine/v1',
  bfl: '/bfl/v1',
} as const;

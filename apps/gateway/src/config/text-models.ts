/**
 * The `providers` and `models` sections of the gateway's YAML config (MODELGATE_CONFIG). The
 * config loader hands those two sections to `parseTextModelConfig`; the schema is exported so
 * the loader can embed it.
 *
 * ```yaml
 * providers:
 *   openai:    { kind: openai, base_url: https://api.openai.com/v1, api_key_env: OPENAI_API_KEY }
 *   anthropic: { kind: anthropic, base_url: https://api.anthropic.com, api_key_env: ANTHROPIC_API_KEY,
 *                timeouts: { connect_ms: 5000, first_byte_ms: 60000, idle_ms: 60000 } }
 * models:
 *   - id: fast
 *     deployments:
 *       - { provider: openai, model: gpt-4o-mini, weight: 3 }
 *       - { provider: anthropic, model: claude-haiku-4-5, weight: 1 }
 *     price: { input_per_million: 0.5, output_per_million: 2 }   # credits per million tokens
 *     # optional: cached_input_per_million, cache_write_5m_per_million, cache_write_1h_per_million
 *     # (else derived as the first deployment's provider prices its cache: models/cache-prices.ts)
 *     max_output_tokens: 4096                                     # default when a request gives none
 * ```
 */
import { z } from 'zod';

export const zProviderTimeoutsConfig = z
  .object({
    connect_ms: z.number().int().positive().optional(),
    first_byte_ms: z.number().int().positive().optional(),
    idle_ms: z.number().int().positive().optional(),
  })
  .strict();

export const zTextProviderConfig = z
  .object({
    kind: z.enum(['openai', 'anthropic']),
    base_url: z.url().optional(),
    api_key: z.string().min(1).optional(),
    api_key_env: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeouts: zProviderTimeoutsConfig.optional(),
  })
  .strict();

export const zTextPriceConfig = z
  .object({
    input_per_million: z.number().nonnegative(),
    output_per_million: z.number().nonnegative(),
    // Prompt-cache prices; each one absent is derived as the first deployment's provider prices
    // it (models/cache-prices.ts).
    cached_input_per_million: z.number().nonnegative().optional(),
    cache_write_5m_per_million: z.number().nonnegative().optional(),
    cache_write_1h_per_million: z.number().nonnegative().optional(),
  })
  .strict();

export const zTextModelConfig = z
  .object({
    id: z.string().min(1),
    deployments: z
      .array(
        z
          .object({
            provider: z.string().min(1),
            model: z.string().min(1),
            weight: z.number().nonnegative().default(1),
          })
          .strict(),
      )
      .min(1),
    price: zTextPriceConfig,
    max_output_tokens: z.number().int().positive().optional(),
    owned_by: z.string().optional(),
  })
  .strict();

/** The two sections, both optional: an absent `models` means pass-through routing. */
export const zTextModelSections = z
  .object({
    providers: z.record(z.string(), zTextProviderConfig).optional(),
    models: z.array(zTextModelConfig).optional(),
  })
  .superRefine((sections, ctx) => {
    const providers = sections.providers ?? {};
    const seen = new Set<string>();
    for (const [index, model] of (sections.models ?? []).entries()) {
      if (seen.has(model.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['models', index, 'id'],
          message: `duplicate model id "${model.id}"`,
        });
      }
      seen.add(model.id);
      for (const [d, deployment] of model.deployments.entries()) {
        if (!(deployment.provider in providers) && !isEnvProviderName(deployment.provider)) {
          ctx.addIssue({
            code: 'custom',
            path: ['models', index, 'deployments', d, 'provider'],
            message: `unknown provider "${deployment.provider}"`,
          });
        }
      }
    }
  });

export type TextProviderConfig = z.infer<typeof zTextProviderConfig>;
export type TextModelConfig = z.infer<typeof zTextModelConfig>;
export type TextModelSections = z.infer<typeof zTextModelSections>;

/** `openai` and `anthropic` exist implicitly when their env key is set. */
export function isEnvProviderName(name: string): name is 'openai' | 'anthropic' {
  return name === 'openai' || name === 'anthropic';
}

/** A config error naming the YAML path, so a bad file says where. */
export class TextConfigError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'TextConfigError';
  }
}

/**
 * Validates the `providers` and `models` sections of the parsed YAML document.
 *
 * @example
 * import { parse } from 'yaml';
 * const sections = parseTextModelConfig(parse(readFileSync(file, 'utf8')));
 */
export function parseTextModelConfig(document: unknown): TextModelSections {
  const input = (document ?? {}) as Record<string, unknown>;
  const result = zTextModelSections.safeParse({ providers: input.providers, models: input.models });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.join('.');
    throw new TextConfigError(`config ${path}: ${issue.message}`, path);
  }
  return result.data;
}

// Prompt caching as the two APIs report it, so a gateway's billing of cache reads and writes can be
// followed through an agent session.
//
// Anthropic (docs.claude.com "Prompt caching", checked Nov 2026): only prefixes ending at a block
// that carries `cache_control` are written, in the order tools → system → messages, once the prefix
// reaches the model's minimum (1,024 tokens for Sonnet and Opus 4.1; 4,096 for Haiku 4.5 and Opus
// 4.5; 2,048 for the Haiku 3 models). A later request reads the longest cached prefix found at a
// block boundary up to 20 blocks back from each breakpoint; a read refreshes the entry's lifetime
// (`ttl` "5m", the default, or "1h"). Usage: `input_tokens` (after the last cache point),
// `cache_read_input_tokens`, `cache_creation_input_tokens` and `cache_creation` by lifetime.
//
// OpenAI (platform.openai.com "Prompt caching"): automatic for prompts of 1,024 tokens or more;
// `prompt_tokens_details.cached_tokens` (Responses: `input_tokens_details.cached_tokens`) is the
// longest prefix seen before, in steps of 128 tokens from 1,024. Entries live a few minutes idle.
import { createHash, type Hash } from 'node:crypto';

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
type Ttl = keyof typeof TTL_MS;

/** Blocks Anthropic looks back over from a breakpoint for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;
const OPENAI_MINIMUM = 1024;
const OPENAI_STEP = 128;

/** One block of a prompt in cache order: its tokens, and its breakpoint's lifetime if it has one. */
export interface PromptSegment {
  content: unknown;
  tokens: number;
  breakpoint: Ttl | null;
}

/** What Anthropic reports for a prompt of `total` input tokens. */
export interface AnthropicCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** A prompt's input with nothing read from or written to a cache. */
export function uncached(total: number): AnthropicCacheUsage {
  return {
    input_tokens: total,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}

interface Boundary {
  hash: string;
  /** Tokens of the prefix ending here. */
  tokens: number;
  breakpoint: Ttl | null;
}

/** The minimum cacheable prefix of a Claude model, in tokens. */
export function anthropicMinimum(model: string): number {
  if (/haiku-4|opus-4-5/.test(model)) return 4096;
  if (/haiku/.test(model)) return 2048;
  return 1024;
}

/** The `ttl` of a block's `cache_control`, or null when it has none. */
export function breakpointOf(block: unknown): Ttl | null {
  if (typeof block !== 'object' || block === null) return null;
  const control = (block as { cache_control?: unknown }).cache_control;
  if (typeof control !== 'object' || control === null) return null;
  return (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
}

/** A block as hashed: its breakpoint marker does not change the content that is cached. */
function withoutBreakpoint(block: unknown): unknown {
  if (Array.isArray(block)) return block.map(withoutBreakpoint);
  if (typeof block !== 'object' || block === null || !('cache_control' in block)) return block;
  const { cache_control: _marker, ...rest } = block as Record<string, unknown>;
  return rest;
}

export class PromptCache {
  /** Prefix hash → when it expires (ms) and its lifetime. */
  private readonly entries = new Map<string, { expires: number; ttl: Ttl }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The usage split of an Anthropic prompt, writing and refreshing entries as the API would.
   * `total` is the prompt's input tokens as counted for the answer; the split never exceeds it.
   */
  anthropic(
    scope: string,
    segments: PromptSegment[],
    total: number,
    minimum: number,
  ): AnthropicCacheUsage {
    const usage = uncached(total);
    if (!segments.some((s) => s.breakpoint !== null)) return usage;
    const boundaries = boundariesOf(scope, segments, total);
    const hit = this.longestHit(boundaries);
    let covered = hit === null ? 0 : boundaries[hit]!.tokens;
    usage.cache_read_input_tokens = covered;
    boundaries.forEach((b, i) => {
      if (b.breakpoint === null || (hit !== null && i <= hit) || b.tokens < minimum) return;
      const written = Math.max(0, b.tokens - covered);
      if (b.breakpoint === '1h') usage.cache_creation.ephemeral_1h_input_tokens += written;
      else usage.cache_creation.ephemeral_5m_input_tokens += written;
      covered = Math.max(covered, b.tokens);
      this.entries.set(b.hash, { expires: this.now() + TTL_MS[b.breakpoint], ttl: b.breakpoint });
    });
    usage.cache_creation_input_tokens =
      usage.cache_creation.ephemeral_5m_input_tokens +
      usage.cache_creation.ephemeral_1h_input_tokens;
    usage.input_tokens = Math.max(0, total - covered);
    return usage;
  }

  /**
   * OpenAI's `cached_tokens` for a prompt of `total` tokens: the longest prefix seen before (at a
   * segment boundary), in 128-token steps from 1,024; then every boundary is remembered.
   */
  openai(scope: string, segments: PromptSegment[], total: number): number {
    if (total < OPENAI_MINIMUM) return 0;
    const boundaries = boundariesOf(scope, segments, total);
    let seen = 0;
    for (const b of boundaries) {
      if (this.live(b.hash)) seen = Math.max(seen, b.tokens);
      if (b.tokens >= OPENAI_MINIMUM) {
        this.entries.set(b.hash, { expires: this.now() + TTL_MS['5m'], ttl: '5m' });
      }
    }
    if (seen < OPENAI_MINIMUM) return 0;
    return OPENAI_MINIMUM + Math.floor((seen - OPENAI_MINIMUM) / OPENAI_STEP) * OPENAI_STEP;
  }

  /** The last boundary within the lookback of some breakpoint whose prefix is cached; refreshed. */
  private longestHit(boundaries: Boundary[]): number | null {
    let hit: number | null = null;
    boundaries.forEach((b, i) => {
      if (b.breakpoint === null) return;
      for (let j = i; j >= Math.max(0, i - LOOKBACK_BLOCKS + 1); j--) {
        if (hit !== null && j <= hit) break;
        if (this.live(boundaries[j]!.hash)) {
          hit = j;
          break;
        }
      }
    });
    if (hit !== null) {
      const entry = this.entries.get(boundaries[hit]!.hash)!;
      entry.expires = this.now() + TTL_MS[entry.ttl];
    }
    return hit;
  }

  private live(hash: string): boolean {
    const entry = this.entries.get(hash);
    if (entry === undefined) return false;
    if (entry.expires > this.now()) return true;
    this.entries.delete(hash);
    return false;
  }
}

/** The running hash and token count at each segment's end (tokens capped at the prompt's total). */
function boundariesOf(scope: string, segments: PromptSegment[], total: number): Boundary[] {
  const hash: Hash = createHash('sha256').update(scope);
  let tokens = 0;
  return segments.map((segment) => {
    hash.update(JSON.stringify(withoutBreakpoint(segment.content)) ?? 'null');
    tokens = Math.min(total, tokens + segment.tokens);
    return { hash: hash.copy().digest('base64'), tokens, breakpoint: segment.breakpoint };
  });
}

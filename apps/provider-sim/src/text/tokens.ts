// Token counting with o200k_base, behind a small LRU: benchmarks send the same prompts again and
// again, and tokenizing is the only real work the simulator does per request.
import { countTokens as countUncached } from 'gpt-tokenizer/encoding/o200k_base';

const MAX_ENTRIES = 2048;
const cache = new Map<string, number>();

/** Number of o200k_base tokens in `text` (cached). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const hit = cache.get(text);
  if (hit !== undefined) {
    // Refresh recency: Map iteration order is insertion order.
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const count = countUncached(text);
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(text, count);
  return count;
}

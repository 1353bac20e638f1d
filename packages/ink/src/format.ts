// Small text formatters shared by the chat screen and the one-shot commands.
import type { CreditSummary, Model, VideoTask } from '@modelgate/core';

/** Credits with up to 6 decimals, trailing zeros dropped: `99.999865`, `100`. */
export function formatCredits(credits: number): string {
  return Number(credits.toFixed(6)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** `12,345` */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * The balance as one line: `99.999865 credits left (100 granted, 0.000135 used)`, or
 * `unlimited credits (0.000135 used)` for a key without a quota.
 */
export function formatBalance(summary: CreditSummary): string {
  if (isUnlimited(summary)) return `unlimited credits (${formatCredits(summary.total_used)} used)`;
  return `${formatCredits(summary.total_available)} credits left (${formatCredits(summary.total_granted)} granted, ${formatCredits(summary.total_used)} used)`;
}

/** The order of the model table's groups: what a chat uses first. */
const TYPE_ORDER: Record<Model['type'], number> = { text: 0, embedding: 1, image: 2, video: 3 };

/** What follows a model's row: an image model's sizes (what `--size` takes), an embedding's length. */
function details(model: Model): string {
  if (model.image) return model.image.sizes.join(' ');
  if (model.embedding) return `${model.embedding.dimensions} dimensions`;
  return '';
}

/**
 * Models as aligned rows `id  type  owned_by`, an image model's sizes or an embedding model's
 * dimensions after them: text models, then embedding, image and video models.
 *
 * @example
 * ```ts
 * formatModelTable(list.data);
 * // → ['gpt-4o-mini  text   openai', …, 'dall-e-3     image  openai  1024x1024 1792x1024 1024x1792', …]
 * ```
 */
export function formatModelTable(models: readonly Model[], current?: string): string[] {
  const sorted = [...models].sort(
    (a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.id.localeCompare(b.id),
  );
  const idWidth = Math.max(0, ...sorted.map((m) => m.id.length));
  const ownerWidth = Math.max(0, ...sorted.map((m) => m.owned_by.length));
  const typeWidth = Math.max(5, ...sorted.map((m) => m.type.length));
  return sorted.map((m) => {
    const marker = current === undefined ? '' : m.id === current ? '* ' : '  ';
    const row = `${marker}${m.id.padEnd(idWidth)}  ${m.type.padEnd(typeWidth)}  ${m.owned_by.padEnd(ownerWidth)}  ${details(m)}`;
    return row.trimEnd();
  });
}

/** A fixed-width bar for 0–100 %: `[██████░░░░]`. */
export function progressBar(percent: number, width = 20): string {
  const clamped = Math.min(100, Math.max(0, percent));
  const filled = Math.round((clamped / 100) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

/** True when the key has no quota (the bootstrap admin key): the gateway then lists no grant. */
export function isUnlimited(summary: CreditSummary): boolean {
  return summary.grants.data.length === 0;
}

/** What the status line shows of the balance: `99.99 credits`, or `unlimited` for a key without a quota. */
export function formatCreditsLeft(summary: CreditSummary): string {
  return isUnlimited(summary) ? 'unlimited' : `${formatCredits(summary.total_available)} credits`;
}

/** A task as one line: `vt_…  vidu-q2  completed  100%  https://…/video.mp4` (or why it failed). */
export function formatTaskLine(task: VideoTask): string {
  const outcome =
    task.video?.url ?? (task.error ? `${task.error.code}: ${task.error.message}` : '');
  return [task.task_id, task.model, task.status, `${Math.round(task.progress)}%`, outcome]
    .filter((part) => part !== '')
    .join('  ');
}

/**
 * What a chat turn cost: `↳ 42 tokens · 0.000135 credits`, the credits being how much the key's used
 * credits grew between the balance before the turn and after it.
 */
export function formatTurnCost(
  tokens: number,
  before: CreditSummary,
  after: CreditSummary,
): string {
  const cost = Math.max(0, after.total_used - before.total_used);
  return `↳ ${formatCount(tokens)} tokens · ${formatCredits(cost)} credits`;
}

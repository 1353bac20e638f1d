// Numbers typed on the command line, and credits (what the CLI speaks) against the API's units.

/** Quota units in one credit: the API counts units, the CLI shows and takes credits. */
const UNITS_PER_CREDIT = 1_000_000;

/** A number above 0 (`'2.5'` → 2.5), else `undefined` (`''`, `'0'`, `'-1'`, `'abc'`). */
export function positiveNumber(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A whole number above 0 written in digits only (`'20'`), else `undefined` (`'2.5'`, `'1e3'`). */
export function positiveInteger(text: string): number | undefined {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : 0;
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Credits as the API's whole units: `creditsToUnits(2.5)` → 2,500,000. */
export function creditsToUnits(credits: number): number {
  return Math.round(credits * UNITS_PER_CREDIT);
}

/** Units as credits: `unitsToCredits(135)` → 0.000135. */
export function unitsToCredits(units: number): number {
  return units / UNITS_PER_CREDIT;
}

// Amounts as people read them. The API counts quota in integer units; people think in credits.

/** Keys' `quota`, `used` and `remaining` are units: 1 credit = 1,000,000 units. */
const UNITS_PER_CREDIT = 1_000_000;

/**
 * Credits are fractional: six decimals show every unit spent. `minDecimals` pads short amounts,
 * so a column of them lines up.
 *
 * @example
 * formatCredits(1.5, 2); // "1.50"
 */
export function formatCredits(credits: number, minDecimals = 0): string {
  return credits.toLocaleString('en-US', {
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: 6,
  });
}

/**
 * Quota units as credits with 2 to 6 decimals; `null` (a key without a quota) reads "unlimited".
 *
 * @example
 * formatUnits(1_234_500); // "1.2345"
 */
export function formatUnits(units: number | null): string {
  return units === null ? 'unlimited' : formatCredits(units / UNITS_PER_CREDIT, 2);
}

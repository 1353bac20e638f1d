/** The billing API's guard: every amount is a non-negative integer number of units. */
export function assertUnits(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
}

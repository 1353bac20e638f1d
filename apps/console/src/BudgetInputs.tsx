import type { BudgetPeriod } from '@modelgate/core';
import type { BudgetFields } from './budget-fields.js';

const PERIODS: BudgetPeriod[] = ['day', 'week', 'month'];

/** Amount (credits) and period of a budget; period "none" takes the budget away. */
export function BudgetInputs({
  value,
  onChange,
}: {
  value: BudgetFields;
  onChange(next: BudgetFields): void;
}) {
  return (
    <>
      <label>
        Budget period
        <select
          name="budget_period"
          value={value.period}
          onChange={(event) =>
            onChange({ ...value, period: event.target.value as BudgetPeriod | '' })
          }
        >
          <option value="">none</option>
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              {p === 'day' ? 'daily' : `${p}ly`}
            </option>
          ))}
        </select>
      </label>
      <label>
        Budget (credits per period)
        <input
          name="budget_amount"
          type="number"
          min={0}
          step="any"
          required={value.period !== ''}
          disabled={value.period === ''}
          value={value.amount}
          onChange={(event) => onChange({ ...value, amount: event.target.value })}
        />
      </label>
    </>
  );
}

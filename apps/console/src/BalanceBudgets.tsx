import type { BalanceBudget, CreditSummary } from '@modelgate/core';
import { formatCredits, formatTime } from './format.js';

/** A budget from the balance (already in credits): spent / amount, what is left, the reset. */
function BudgetRow({ label, budget }: { label: string; budget: BalanceBudget | null }) {
  return (
    <tr data-budget={label}>
      <th scope="row">{label}</th>
      {budget ? (
        <>
          <td className="num">
            {formatCredits(budget.spent)} / {formatCredits(budget.amount)}
          </td>
          <td>per {budget.period}</td>
          <td className="num">{formatCredits(budget.available)}</td>
          <td>{formatTime(budget.resets_at)}</td>
        </>
      ) : (
        <td colSpan={4}>none</td>
      )}
    </tr>
  );
}

/** The key's own budget and its team's, as the balance reports them. */
export function BalanceBudgets({ budgets }: { budgets: CreditSummary['budgets'] }) {
  return (
    <table data-testid="balance-budgets">
      <caption>Budgets</caption>
      <thead>
        <tr>
          <th>Budget</th>
          <th className="num">Spent / amount</th>
          <th>Period</th>
          <th className="num">Left</th>
          <th>Resets (UTC)</th>
        </tr>
      </thead>
      <tbody>
        <BudgetRow label="Key" budget={budgets.key} />
        <BudgetRow label="Team" budget={budgets.team} />
      </tbody>
    </table>
  );
}

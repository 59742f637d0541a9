// The amount-mode allocation check against the entry's total in the base currency (expenses + per-diems,
// from `figuresIn`; issue 12: allocations are re-checked when a child changes the total; docs/decisions/0072).
import type { FieldErrors } from '@travel/platform';
import { checkAllocationSum, type CostCenterAllocation } from './allocations';
import { sameAmount, sumText } from './amounts';
import { figuresIn } from './entry-figures';
import type { Expense } from './expense';
import type { PerDiem } from './per-diem-row';

const KEY = 'costCenterAllocations';

/**
 * Amount-mode allocations must sum to the entry's whole: its expenses and its per-diems in the base
 * currency. Without per-diems this is the expense-total rule of docs/decisions/0047, with its message. A
 * total that is not known (a per-diem row without an amount) cannot be split by amounts.
 */
export function checkAllocationsCover(
  allocations: readonly CostCenterAllocation[],
  expenses: readonly Pick<Expense, 'amountInBaseCurrency'>[],
  perDiems: readonly Pick<PerDiem, 'amountInBaseCurrency'>[],
  digits: number,
): FieldErrors {
  const amountMode = allocations.length > 0 && allocations.every((a) => a.amount !== null);
  const { expenseTotal, perDiemTotal, total } = figuresIn({ expenses, perDiems }, digits);
  if (!amountMode || perDiems.length === 0) return checkAllocationSum(allocations, expenseTotal, digits);
  if (total === null)
    return {
      [KEY]: ['amounts cannot split an entry whose per-diem total is not known (a row has no amount); use percentages'],
    };
  const sum = sumText(
    allocations.map((a) => a.amount!),
    digits,
  );
  return sameAmount(sum, total)
    ? {}
    : {
        [KEY]: [
          `amounts must sum to the entry's total ${total} (expense total ${expenseTotal} + per-diem total ${perDiemTotal}); they sum to ${sum}`,
        ],
      };
}

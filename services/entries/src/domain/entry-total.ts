// The entry's total in the base currency (expenses + per-diems) and the amount-mode allocation check
// against it (issue 12: allocations are re-checked when a child changes the total; docs/decisions/0072).
import type { FieldErrors } from '@travel/platform';
import { checkAllocationSum, type CostCenterAllocation } from './allocations';
import { Decimal, sumText } from './amounts';
import type { Expense } from './expense';
import type { PerDiem } from './per-diem-row';

/** Sum of the per-diem rows' `amountInBaseCurrency`; null when any row's is unknown (never a partial sum). */
export function perDiemTotal(rows: readonly Pick<PerDiem, 'amountInBaseCurrency'>[], digits: number): string | null {
  if (rows.some((r) => r.amountInBaseCurrency === null || r.amountInBaseCurrency === undefined)) return null;
  return sumText(
    rows.map((r) => r.amountInBaseCurrency!),
    digits,
  );
}

/** Expenses + per-diems in the base currency; null when a per-diem row's amount is unknown. */
export function entryTotal(
  expenses: readonly Pick<Expense, 'amountInBaseCurrency'>[],
  perDiems: readonly Pick<PerDiem, 'amountInBaseCurrency'>[],
  digits: number,
): string | null {
  const pd = perDiemTotal(perDiems, digits);
  if (pd === null) return null;
  return sumText([...expenses.map((x) => x.amountInBaseCurrency), pd], digits);
}

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
  const expenseTotal = sumText(
    expenses.map((x) => x.amountInBaseCurrency),
    digits,
  );
  if (!amountMode || perDiems.length === 0) return checkAllocationSum(allocations, expenseTotal, digits);
  const perDiemSum = perDiemTotal(perDiems, digits);
  if (perDiemSum === null)
    return {
      [KEY]: ['amounts cannot split an entry whose per-diem total is not known (a row has no amount); use percentages'],
    };
  const total = new Decimal(expenseTotal).plus(perDiemSum).toFixed(digits);
  const sum = sumText(
    allocations.map((a) => a.amount!),
    digits,
  );
  return new Decimal(sum).equals(total)
    ? {}
    : {
        [KEY]: [
          `amounts must sum to the entry's total ${total} (expense total ${expenseTotal} + per-diem total ${perDiemSum}); they sum to ${sum}`,
        ],
      };
}

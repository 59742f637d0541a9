import type { FieldErrors } from '@travel/platform';
import { itemsProblem } from '@travel/platform/src/limits';
import { checkRange, Decimal, decimalText, sameAmount, sumText } from './amounts';
import { ALLOCATION_AMOUNT_RANGE, MAX_ALLOCATIONS, PERCENTAGE_RANGE } from './limits';

/** One share of an entry's costs: a percentage (2 decimals) or an amount in the base currency, never both. */
export interface CostCenterAllocation {
  costCenterId: string;
  percentage: string | null;
  amount: string | null;
}

export interface AllocationInput {
  costCenterId: string;
  percentage?: number | null;
  amount?: number | null;
}

const KEY = 'costCenterAllocations';
const PERCENT_PLACES = 2;

/**
 * Shape rules that need nothing but the body: at most MAX_ALLOCATIONS, distinct cost centers, exactly one
 * of percentage and amount per allocation, one mode for the whole entry, percentages above 0 up to 100 with
 * 2 decimals and amounts above 0 with the base currency's minor digits.
 */
export function checkAllocationShape(
  input: readonly AllocationInput[],
  baseDigits: number,
): { allocations: CostCenterAllocation[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const tooMany = itemsProblem(input, MAX_ALLOCATIONS);
  if (tooMany) return { allocations: [], errors: { [KEY]: [tooMany] } };
  const seen = new Set<string>();
  const allocations = input.map((a, i): CostCenterAllocation => {
    const at = `${KEY}[${i}]`;
    const costCenterId = a.costCenterId.toLowerCase();
    if (seen.has(costCenterId)) add(`${at}.costCenterId`, 'is listed twice');
    seen.add(costCenterId);
    const hasPercentage = a.percentage !== undefined && a.percentage !== null;
    const hasAmount = a.amount !== undefined && a.amount !== null;
    if (hasPercentage === hasAmount) add(at, 'must have either a percentage or an amount');
    const percentage = hasPercentage ? decimalText(a.percentage!, PERCENT_PLACES) : null;
    if (percentage === undefined) add(`${at}.percentage`, `must have at most ${PERCENT_PLACES} decimals`);
    checkRange(add, `${at}.percentage`, percentage, PERCENTAGE_RANGE);
    const amount = hasAmount ? decimalText(a.amount!, baseDigits) : null;
    if (amount === undefined) add(`${at}.amount`, `must have at most ${baseDigits} decimals`);
    checkRange(add, `${at}.amount`, amount, ALLOCATION_AMOUNT_RANGE);
    return { costCenterId, percentage: percentage ?? null, amount: amount ?? null };
  });
  const modes = new Set(allocations.map((a) => (a.percentage !== null ? 'percentage' : 'amount')));
  if (modes.size > 1) add(KEY, 'must all be percentages or all be amounts');
  return { allocations, errors };
}

/**
 * The whole: percentages sum to 100; amounts sum to the entry's expense total in the base currency
 * (`total`, decimal text). No allocations at all is valid (the entry is not split).
 */
export function checkAllocationSum(
  allocations: readonly CostCenterAllocation[],
  total: string,
  baseDigits: number,
): FieldErrors {
  if (allocations.length === 0) return {};
  if (allocations.every((a) => a.percentage !== null)) {
    const sum = sumText(
      allocations.map((a) => a.percentage!),
      PERCENT_PLACES,
    );
    return sameAmount(sum, '100') ? {} : { [KEY]: [`percentages must sum to 100 (they sum to ${sum})`] };
  }
  if (allocations.every((a) => a.amount !== null)) {
    const sum = sumText(
      allocations.map((a) => a.amount!),
      baseDigits,
    );
    return sameAmount(sum, total)
      ? {}
      : {
          [KEY]: [
            `amounts must sum to the entry's expense total ${new Decimal(total).toFixed(baseDigits)} (they sum to ${sum})`,
          ],
        };
  }
  return {};
}

/** Cost centers a write adds: those not already on the entry (existing ones are never re-checked). */
export const addedCostCenters = (
  before: readonly CostCenterAllocation[],
  after: readonly CostCenterAllocation[],
): string[] => {
  const had = new Set(before.map((a) => a.costCenterId));
  return after.map((a) => a.costCenterId).filter((id) => !had.has(id));
};

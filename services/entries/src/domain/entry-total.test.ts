// The entry's whole for amount-mode allocations: expenses + per-diems (docs/decisions/0072).
import { checkAllocationsCover } from './entry-total';

const CC = 'aaaaaaaa-0000-4000-8000-000000000001';
const alloc = (amount: string) => [{ costCenterId: CC, percentage: null, amount }];
const pct = [{ costCenterId: CC, percentage: '100.00', amount: null }];

describe('entry total', () => {
  it('amount allocations must reach expenses + per-diems; percentages always do', () => {
    const expenses = [{ amountInBaseCurrency: '500.00' }];
    const perDiems = [{ amountInBaseCurrency: '236.00' }];
    expect(checkAllocationsCover(alloc('736.00'), expenses, perDiems, 2)).toEqual({});
    expect(checkAllocationsCover(alloc('500.00'), expenses, perDiems, 2).costCenterAllocations[0]).toContain('736.00');
    expect(checkAllocationsCover(pct, expenses, perDiems, 2)).toEqual({});
    expect(checkAllocationsCover(alloc('500.00'), expenses, [], 2)).toEqual({});
    expect(checkAllocationsCover(alloc('500.00'), expenses, [{ amountInBaseCurrency: null }], 2)).toHaveProperty([
      'costCenterAllocations',
    ]);
  });
});

import { addedCostCenters, checkAllocationShape, checkAllocationSum } from './allocations';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

describe('cost-center allocations', () => {
  it('percentages must sum to exactly 100, with 2 decimals', () => {
    const { allocations, errors } = checkAllocationShape(
      [
        { costCenterId: A, percentage: 33.33 },
        { costCenterId: B, percentage: 66.67 },
      ],
      2,
    );
    expect(errors).toEqual({});
    expect(checkAllocationSum(allocations, '0', 2)).toEqual({});
    const off = checkAllocationShape([{ costCenterId: A, percentage: 99.99 }], 2).allocations;
    expect(checkAllocationSum(off, '0', 2).costCenterAllocations).toBeDefined();
    expect(checkAllocationShape([{ costCenterId: A, percentage: 50.001 }], 2).errors).toHaveProperty([
      'costCenterAllocations[0].percentage',
    ]);
  });

  it('amounts must sum to the expense total in the base currency', () => {
    const { allocations } = checkAllocationShape(
      [
        { costCenterId: A, amount: 0.1 },
        { costCenterId: B, amount: 0.2 },
      ],
      2,
    );
    expect(checkAllocationSum(allocations, '0.30', 2)).toEqual({});
    expect(checkAllocationSum(allocations, '0.31', 2).costCenterAllocations).toBeDefined();
  });

  it('one mode per entry, one of the two per allocation, each cost center once', () => {
    expect(
      checkAllocationShape(
        [
          { costCenterId: A, percentage: 50 },
          { costCenterId: B, amount: 10 },
        ],
        2,
      ).errors.costCenterAllocations,
    ).toBeDefined();
    expect(checkAllocationShape([{ costCenterId: A, percentage: 50, amount: 10 }], 2).errors).toHaveProperty([
      'costCenterAllocations[0]',
    ]);
    expect(checkAllocationShape([{ costCenterId: A }], 2).errors).toHaveProperty(['costCenterAllocations[0]']);
    expect(
      checkAllocationShape(
        [
          { costCenterId: A, percentage: 50 },
          { costCenterId: A.toUpperCase(), percentage: 50 },
        ],
        2,
      ).errors,
    ).toHaveProperty(['costCenterAllocations[1].costCenterId']);
  });

  it('only cost centers new to the entry are checked against the employee', () => {
    const before = [{ costCenterId: A, percentage: '100.00', amount: null }];
    const after = [
      { costCenterId: A, percentage: '50.00', amount: null },
      { costCenterId: B, percentage: '50.00', amount: null },
    ];
    expect(addedCostCenters(before, after)).toEqual([B]);
  });
});

import { amountDue, refusalToReserve, type PayableEntry } from './payout';

const entry = (over: Partial<PayableEntry> = {}) =>
  ({
    _id: 'e1',
    status: 3,
    isPaidOut: false,
    deletedAt: null,
    payoutBatchId: null,
    baseCurrency: 'EUR',
    advancePaymentInBaseCurrency: '100.00',
    expenses: [{ amountInBaseCurrency: '80.10' }, { amountInBaseCurrency: '40.25' }],
    ...over,
  }) as unknown as PayableEntry;

describe('amount due for payout', () => {
  it('expenses plus per-diems minus the advance, in the base currency', () => {
    expect(amountDue(entry())).toBe('20.35');
    const perDiems = [
      { amountInBaseCurrency: '53.20' },
      { amountInBaseCurrency: '26.60' },
      { amountInBaseCurrency: null },
    ];
    expect(amountDue(entry({ perDiems } as unknown as Partial<PayableEntry>))).toBe('100.15');
    expect(amountDue(entry({ advancePaymentInBaseCurrency: '500.00' }))).toBe('-379.65');
    expect(amountDue(entry({ baseCurrency: 'CZK', expenses: [], advancePaymentInBaseCurrency: '0.00' }))).toBe('0.00');
  });

  it('reserves only approved, unpaid, live entries with something due and no other batch', () => {
    expect(refusalToReserve(entry(), 'b1')).toBeUndefined();
    expect(refusalToReserve(entry({ payoutBatchId: 'b1' }), 'b1')).toBeUndefined();
    expect(refusalToReserve(null, 'b1')).toBe('does not exist');
    expect(refusalToReserve(entry({ deletedAt: new Date() }), 'b1')).toBe('does not exist');
    expect(refusalToReserve(entry({ payoutBatchId: 'b2' }), 'b1')).toBe('is already in another payout batch');
    expect(refusalToReserve(entry({ isPaidOut: true }), 'b1')).toBe('is already paid out');
    expect(refusalToReserve(entry({ status: 1 }), 'b1')).toBe('is not approved');
    expect(refusalToReserve(entry({ advancePaymentInBaseCurrency: '120.35' }), 'b1')).toMatch(/nothing due/);
  });
});

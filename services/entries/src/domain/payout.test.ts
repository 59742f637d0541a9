import { heldByBatch, refusalToReserve, type PayableEntry } from './payout';

const NOW = new Date('2026-11-25T12:00:00Z');
const LATER = new Date('2026-11-25T12:10:00Z');
const EARLIER = new Date('2026-11-25T11:50:00Z');

const entry = (over: Partial<PayableEntry> = {}) =>
  ({
    _id: 'e1',
    status: 3,
    isPaidOut: false,
    deletedAt: null,
    payoutBatchId: null,
    payoutReservedUntil: null,
    baseCurrency: 'EUR',
    advancePaymentInBaseCurrency: '100.00',
    expenses: [{ amountInBaseCurrency: '80.10' }, { amountInBaseCurrency: '40.25' }],
    ...over,
  }) as unknown as PayableEntry;

describe('reserving an entry for a payout batch', () => {
  it('reserves only approved, unpaid, live entries with something due and no other batch', () => {
    expect(refusalToReserve(entry(), 'b1', NOW)).toBeUndefined();
    expect(refusalToReserve(entry({ payoutBatchId: 'b1' }), 'b1', NOW)).toBeUndefined();
    expect(refusalToReserve(null, 'b1', NOW)).toBe('does not exist');
    expect(refusalToReserve(entry({ deletedAt: new Date() }), 'b1', NOW)).toBe('does not exist');
    expect(refusalToReserve(entry({ payoutBatchId: 'b2' }), 'b1', NOW)).toBe('is already in another payout batch');
    expect(refusalToReserve(entry({ isPaidOut: true }), 'b1', NOW)).toBe('is already paid out');
    expect(refusalToReserve(entry({ status: 1 }), 'b1', NOW)).toBe('is not approved');
    expect(refusalToReserve(entry({ advancePaymentInBaseCurrency: '120.35' }), 'b1', NOW)).toMatch(/nothing due/);
  });

  it('an unknown per-diem total is never reserved as 0: the refusal says why', () => {
    const perDiems = [{ amountInBaseCurrency: '53.20' }, { amountInBaseCurrency: null }];
    const refusal = refusalToReserve(entry({ perDiems } as unknown as Partial<PayableEntry>), 'b1', NOW);
    expect(refusal).toContain('per-diem total is not known');
    expect(refusal).toContain('perDiems[1]');
  });

  it('another batch’s reservation holds until its deadline; past it the entry may be taken (docs/decisions/0110)', () => {
    expect(refusalToReserve(entry({ payoutBatchId: 'b2', payoutReservedUntil: LATER }), 'b1', NOW)).toBe(
      'is already in another payout batch',
    );
    expect(refusalToReserve(entry({ payoutBatchId: 'b2', payoutReservedUntil: EARLIER }), 'b1', NOW)).toBeUndefined();
    // Paid out by the other batch: held for good, whatever the deadline said.
    expect(
      refusalToReserve(entry({ payoutBatchId: 'b2', payoutReservedUntil: EARLIER, isPaidOut: true }), 'b1', NOW),
    ).toBe('is already in another payout batch');
    expect(heldByBatch({ payoutBatchId: 'b2', payoutReservedUntil: EARLIER, isPaidOut: false }, NOW)).toBe(false);
    expect(heldByBatch({ payoutBatchId: 'b2', payoutReservedUntil: null, isPaidOut: false }, NOW)).toBe(true);
    expect(heldByBatch({ payoutBatchId: null, payoutReservedUntil: LATER, isPaidOut: false }, NOW)).toBe(false);
  });
});

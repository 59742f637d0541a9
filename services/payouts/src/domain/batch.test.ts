import {
  batchEntry,
  deletableUntil,
  duplicateIds,
  finalSince,
  payeeSnapshot,
  refusalToDelete,
  totals,
  withoutBankAccount,
  type Batch,
} from './batch';

const batch = (over: Partial<Batch> = {}): Batch => ({
  _id: 'b1',
  tenantId: 't1',
  state: 'completed',
  payoutMethod: 'BankTransfer',
  currencyCode: 'EUR',
  entryIds: [],
  entries: [],
  createdAt: new Date('2026-11-01T10:00:00.000Z'),
  createdByEmployeeId: 'e1',
  completedAt: new Date('2026-11-01T10:00:01.000Z'),
  paymentFileDownloadedAt: null,
  deletedAt: null,
  stateAt: new Date('2026-11-01T10:00:01.000Z'),
  rev: 2,
  ...over,
});

describe('payout batches', () => {
  it('repeated entry ids are keyed by the later index', () => {
    expect(duplicateIds(['a', 'b', 'A', 'c', 'b'])).toEqual({
      'entryIds[2]': ['repeats entryIds[0]'],
      'entryIds[4]': ['repeats entryIds[1]'],
    });
  });

  it('totals split what the company pays from what employees owe back, in decimals', () => {
    const entries = ['0.10', '0.20', '-30.00', '1000.05'].map((amountDue, i) =>
      batchEntry({ entryId: `e${i}`, entryNumber: '', employeeId: 'x', amountDue }),
    );
    expect(totals(entries, 'EUR')).toEqual({ toEmployees: '1000.35', fromEmployees: '30.00' });
    expect(entries[2]!.direction).toBe('FromEmployee');
  });

  it('can be undone for 30 days, and never once it was marked sent to the bank (or downloaded before 0191)', () => {
    const b = batch();
    expect(deletableUntil(b)).toEqual(new Date('2026-12-01T10:00:00.000Z'));
    expect(refusalToDelete(b, new Date('2026-11-30T10:00:00.000Z'))).toBeUndefined();
    expect(refusalToDelete(b, new Date('2026-12-01T10:00:01.000Z'))).toMatch(/30 days/);
    const at = new Date('2026-11-02T08:00:00.000Z');
    const sent = batch({ sentToBank: { at, employeeId: 'e2', keyIssuedByEmployeeId: null } });
    expect(deletableUntil(sent)).toBeNull();
    expect(finalSince(sent)).toEqual(at);
    expect(refusalToDelete(sent, new Date('2026-11-02T09:00:00.000Z'))).toMatch(/sent to the bank/);
    // A batch whose file was downloaded while a download still marked batches stays final.
    const downloaded = batch({ paymentFileDownloadedAt: at });
    expect(deletableUntil(downloaded)).toBeNull();
    expect(finalSince(downloaded)).toEqual(at);
    expect(refusalToDelete(downloaded, new Date('2026-11-02T09:00:00.000Z'))).toMatch(/downloaded/);
  });

  it('keeps each paid employee’s bank data once; an employee owing money back needs none; a bad IBAN is kept as null', () => {
    const entries = [
      batchEntry({ entryId: 'a', entryNumber: '1', employeeId: 'ivo', amountDue: '250.25' }),
      batchEntry({ entryId: 'b', entryNumber: '2', employeeId: 'ivo', amountDue: '99.75' }),
      batchEntry({ entryId: 'c', entryNumber: '3', employeeId: 'owes', amountDue: '-50.00' }),
      batchEntry({ entryId: 'd', entryNumber: '4', employeeId: 'ana', amountDue: '5.00' }),
      batchEntry({ entryId: 'e', entryNumber: '5', employeeId: 'gone', amountDue: '1.00' }),
    ];
    const records = [
      { id: 'ivo', name: 'Ivo Kovač', bankAccount: 'hr12 1001 0051 8630 0016 0', bic: 'ZABAHR2X' },
      { id: 'owes', name: 'Owes', bankAccount: 'HR1210010051863000160', bic: null },
      { id: 'ana', name: 'Ana Bez', bankAccount: 'HR0000000000000000000', bic: null },
    ];
    const payees = payeeSnapshot(entries, records);
    expect(payees).toEqual([
      { employeeId: 'ivo', name: 'Ivo Kovač', iban: 'HR1210010051863000160', bic: 'ZABAHR2X' },
      { employeeId: 'ana', name: 'Ana Bez', iban: null, bic: null },
    ]);
    // Ana's IBAN is not valid, the employee of e is not on record; c is owed back, never transferred.
    expect(withoutBankAccount(entries, payees)).toEqual([3, 4]);
  });
});

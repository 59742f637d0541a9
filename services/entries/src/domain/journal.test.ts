import {
  accountErrors,
  DEFAULT_JOURNAL_ACCOUNTS,
  effectiveAccounts,
  entryJournal,
  journalTotals,
  missingAccounts,
} from './journal';
import type { PayableEntry } from './payout';

const entry = (over: Record<string, unknown> = {}) =>
  ({
    _id: 'e1',
    entryNumber: '2026-00001',
    employeeId: 'emp-1',
    status: 3,
    isPaidOut: true,
    approvedAt: new Date('2026-11-10T09:00:00Z'),
    paidOutAt: new Date('2026-11-20T10:00:00Z'),
    returnDate: '2026-11-02',
    baseCurrency: 'CZK',
    advancePaymentDate: '2026-11-01',
    advancePaymentInBaseCurrency: '1000.00',
    perDiems: [{ amountInBaseCurrency: '155.00' }, { amountInBaseCurrency: '484.80' }],
    expenses: [
      { kind: 'Mileage', amountInBaseCurrency: '798.20' },
      { kind: 'Other', amountInBaseCurrency: '727.20' },
    ],
    deletedAt: null,
    ...over,
  }) as unknown as PayableEntry;

const CZ = DEFAULT_JOURNAL_ACCOUNTS.CZ;
const brief = (e: PayableEntry) =>
  entryJournal(e, 'CZ', CZ, 2).map((l) => [l.transaction, l.date, l.account, l.debit, l.credit]);

describe('the journal of an entry (decision 0143)', () => {
  it('advance, costs by kind, the advance set off and the rest paid: CZ accounts 335, 512, 333, 221', () => {
    expect(brief(entry())).toEqual([
      ['2026-00001/1', '2026-11-01', '335', '1000.00', '0.00'],
      ['2026-00001/1', '2026-11-01', '221', '0.00', '1000.00'],
      ['2026-00001/2', '2026-11-10', '512', '639.80', '0.00'],
      ['2026-00001/2', '2026-11-10', '333', '0.00', '639.80'],
      ['2026-00001/3', '2026-11-10', '512', '798.20', '0.00'],
      ['2026-00001/3', '2026-11-10', '333', '0.00', '798.20'],
      ['2026-00001/4', '2026-11-10', '512', '727.20', '0.00'],
      ['2026-00001/4', '2026-11-10', '333', '0.00', '727.20'],
      ['2026-00001/5', '2026-11-10', '333', '1000.00', '0.00'],
      ['2026-00001/5', '2026-11-10', '335', '0.00', '1000.00'],
      ['2026-00001/6', '2026-11-20', '333', '1165.20', '0.00'],
      ['2026-00001/6', '2026-11-20', '221', '0.00', '1165.20'],
    ]);
  });

  it('an advance above the claim: set off up to the claim, the rest repaid to the bank', () => {
    const lines = brief(entry({ advancePaymentInBaseCurrency: '3000.00' }));
    expect(lines.slice(-4)).toEqual([
      ['2026-00001/5', '2026-11-10', '333', '2165.20', '0.00'],
      ['2026-00001/5', '2026-11-10', '335', '0.00', '2165.20'],
      ['2026-00001/6', '2026-11-20', '221', '834.80', '0.00'],
      ['2026-00001/6', '2026-11-20', '335', '0.00', '834.80'],
    ]);
  });

  it('balances for every shape: with or without advance, per-diems, expenses; zero lines left out', () => {
    const shapes = [
      entry(),
      entry({ advancePaymentInBaseCurrency: '0' }),
      entry({ advancePaymentInBaseCurrency: '2165.20' }),
      entry({ perDiems: [], advancePaymentInBaseCurrency: '5000.01' }),
      entry({ expenses: [{ kind: 'Parking', amountInBaseCurrency: '0.01' }], perDiems: [] }),
    ];
    for (const e of shapes) {
      const lines = entryJournal(e, 'CZ', CZ, 2);
      const totals = journalTotals(lines, 2);
      expect(totals.debit).toBe(totals.credit);
      expect(lines.every((l) => l.entryId === 'e1' && (l.debit === '0.00') !== (l.credit === '0.00'))).toBe(true);
    }
  });

  it('PL, HR and SI have no verified default: the lines name what is missing; the company’s accounts fill it', () => {
    const lines = entryJournal(entry(), 'PL', effectiveAccounts('PL', null), 2);
    expect(missingAccounts(lines)).toEqual([
      'perDiems',
      'Mileage',
      'Other',
      'advancesToEmployees',
      'payablesToEmployees',
      'bank',
    ]);
    const own = {
      perDiems: '409',
      Mileage: '409',
      Other: '409',
      advancesToEmployees: '234',
      payablesToEmployees: '234',
      bank: '131',
    };
    expect(missingAccounts(entryJournal(entry(), 'PL', effectiveAccounts('PL', own), 2))).toEqual([]);
    // The company's account wins over a default; a null keeps the default.
    expect(effectiveAccounts('CZ', { perDiems: '512100', bank: null })).toMatchObject({
      perDiems: '512100',
      bank: '221',
    });
  });

  it('account numbers are checked by key', () => {
    expect(accountErrors({ perDiems: '512', bank: null })).toEqual({});
    expect(Object.keys(accountErrors({ cash: '211', bank: '', Meals: 512 }))).toEqual([
      'accounts.cash',
      'accounts.bank',
      'accounts.Meals',
    ]);
    expect(accountErrors([])).toHaveProperty('accounts');
  });
});

import { countsForMonth, entryPayrollFigures, isMonth, payrollRows } from './payroll-export';
import type { PayableEntry } from './payout';

const entry = (over: Record<string, unknown> = {}) =>
  ({
    _id: 'e1',
    entryNumber: 'CZ-2026-0001',
    employeeId: 'emp-1',
    status: 3,
    isPaidOut: true,
    paidOutAt: new Date('2026-11-20T10:00:00Z'),
    deletedAt: null,
    baseCurrency: 'CZK',
    advancePaymentInBaseCurrency: '1000.00',
    expenses: [],
    perDiems: [],
    ...over,
  }) as unknown as PayableEntry;

describe('payroll export: which entries count for a month (decision 0141)', () => {
  it('approved, paid out, live entries whose payout falls in the month of the market’s calendar', () => {
    expect(countsForMonth(entry(), 'CZ', '2026-11')).toBe(true);
    expect(countsForMonth(entry({ isPaidOut: false, paidOutAt: null }), 'CZ', '2026-11')).toBe(false);
    expect(countsForMonth(entry({ deletedAt: new Date() }), 'CZ', '2026-11')).toBe(false);
    expect(countsForMonth(entry({ status: 1 }), 'CZ', '2026-11')).toBe(false);
    // 30 Nov 23:30 UTC is 1 Dec 00:30 in Prague: December's payroll.
    const late = entry({ paidOutAt: new Date('2026-11-30T23:30:00Z') });
    expect(countsForMonth(late, 'CZ', '2026-11')).toBe(false);
    expect(countsForMonth(late, 'CZ', '2026-12')).toBe(true);
  });

  it('a month is YYYY-MM', () => {
    expect(['2026-11', '2026-01', '1999-12'].every(isMonth)).toBe(true);
    expect(['2026-13', '2026-00', '2026-1', '202611', '2026-11-01', ''].some(isMonth)).toBe(false);
  });
});

describe('payroll export: an entry’s figures', () => {
  // CZ, Austria ⅓ × 45 € with a free lunch = 4.50 € statutory, the company pays 20 € (CNB 24.240).
  const foreign = {
    kind: 'Foreign',
    amount: '4.50',
    payableAmount: '20.00',
    taxFreeAmount: '4.50',
    excessAmount: '15.50',
    amountInBaseCurrency: '484.80',
  };
  const domestic = {
    kind: 'Domestic',
    amount: '155.00',
    payableAmount: '155.00',
    taxFreeAmount: '155.00',
    excessAmount: null,
    amountInBaseCurrency: '155.00',
  };
  const mileage = {
    kind: 'Mileage',
    amountInBaseCurrency: '798.20',
    distanceKm: '100',
    ratePerKm: '5.90',
    fuelConsumption: '6',
    fuelUnitPrice: '34.70',
  };
  const taxi = { kind: 'Other', amountInBaseCurrency: '727.20' };

  it('splits per-diems into the tax-free part and the excess converted at the row’s own ratio', () => {
    const f = entryPayrollFigures(entry({ perDiems: [domestic, foreign], expenses: [mileage, taxi] }), 2);
    expect(f).toEqual({
      entryId: 'e1',
      entryNumber: 'CZ-2026-0001',
      employeeId: 'emp-1',
      paidOutAt: '2026-11-20T10:00:00.000Z',
      perDiemPaid: '639.80',
      perDiemTaxFree: '264.08', // 155 + 4.50 × 24.240
      perDiemTaxable: '375.72', // 15.50 × 24.240
      mileagePaid: '798.20',
      mileageTaxFree: '798.20', // 100 × 5.90 + 6 l × 34.70
      mileageTaxable: '0.00',
      otherExpenses: '727.20',
      advance: '1000.00',
      amountPaid: '1165.20',
    });
  });

  it('mileage paid above the statutory rate is taxable; a row without a statutory amount is taxable whole', () => {
    const above = { ...mileage, amountInBaseCurrency: '900.00' };
    const unknownRate = { ...foreign, amount: null, taxFreeAmount: null, excessAmount: null };
    const f = entryPayrollFigures(entry({ perDiems: [unknownRate], expenses: [above] }), 2);
    expect(f).toMatchObject({
      mileageTaxFree: '798.20',
      mileageTaxable: '101.80',
      perDiemTaxFree: '0.00',
      perDiemTaxable: '484.80',
    });
  });

  it('a row paying the company’s own rate is taxable whole; a confirmed reported figure is tax-free (0188)', () => {
    const own = { ...foreign, amount: '20.00', taxFreeAmount: null, excessAmount: null, rateBasis: 'CompanyRate' };
    expect(entryPayrollFigures(entry({ perDiems: [own] }), 2)).toMatchObject({
      perDiemTaxFree: '0.00',
      perDiemTaxable: '484.80',
    });
    const confirmed = {
      ...foreign,
      amount: '20.00',
      taxFreeAmount: '20.00',
      excessAmount: '0.00',
      rateBasis: 'CompanyConfirmedReported',
    };
    expect(entryPayrollFigures(entry({ perDiems: [confirmed] }), 2)).toMatchObject({
      perDiemTaxFree: '484.80',
      perDiemTaxable: '0.00',
    });
  });

  it('sums per employee with the entries each figure comes from', () => {
    const a = entryPayrollFigures(entry({ perDiems: [foreign] }), 2);
    const b = entryPayrollFigures(entry({ _id: 'e2', perDiems: [domestic], advancePaymentInBaseCurrency: '0' }), 2);
    const c = entryPayrollFigures(entry({ _id: 'e3', employeeId: 'emp-2' }), 2);
    const rows = payrollRows('2026-11', 'CZK', [a, b, c], 2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      month: '2026-11',
      employeeId: 'emp-1',
      currencyCode: 'CZK',
      perDiemPaid: '639.80',
      perDiemTaxable: '375.72',
      advance: '1000.00',
      amountPaid: '-360.20',
      entryIds: ['e1', 'e2'],
    });
    expect(rows[1]).toMatchObject({ employeeId: 'emp-2', amountPaid: '-1000.00', entryIds: ['e3'] });
  });
});

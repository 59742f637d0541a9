// The payroll export (issue 23 §2, docs/decisions/0141): per employee and month, what payroll needs from
// the settled trips: the per-diems split into the statutory tax-free part and the taxable excess, mileage
// above the tax-free reimbursement, the other expenses, the advance and the amount paid at settlement,
// each figure with the entries it comes from. Pure: no I/O; decimal text in the base currency throughout.
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import type { Market } from '@travel/platform';
import { Decimal, roundText } from './amounts';
import { EntryStatus } from './entry';
import { entryFigures } from './entry-figures';
import type { PayableEntry } from './payout';

/** The figures one entry contributes to its employee's month, in the base currency. */
export interface PayrollEntryFigures {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  paidOutAt: string;
  perDiemPaid: string;
  perDiemTaxFree: string;
  perDiemTaxable: string;
  mileagePaid: string;
  mileageTaxFree: string;
  mileageTaxable: string;
  otherExpenses: string;
  advance: string;
  /** What the settlement paid (negative: what the employee paid back). */
  amountPaid: string;
}

/** One employee's month: the sums of their entries' figures, and the entries. */
export interface PayrollRow extends Omit<PayrollEntryFigures, 'entryId' | 'entryNumber' | 'paidOutAt'> {
  month: string;
  currencyCode: string;
  entryIds: string[];
}

export const MONEY_COLUMNS = [
  'perDiemPaid',
  'perDiemTaxFree',
  'perDiemTaxable',
  'mileagePaid',
  'mileageTaxFree',
  'mileageTaxable',
  'otherExpenses',
  'advance',
  'amountPaid',
] as const satisfies readonly (keyof PayrollEntryFigures)[];

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Whether `month` is a calendar month as `YYYY-MM`. */
export const isMonth = (month: string): boolean => MONTH.test(month);

/**
 * Whether an entry belongs to the payroll of `month`: approved, paid out, not deleted, and paid out in
 * that month in the market's calendar. Payroll taxes a taxable excess in the month it is paid, so the
 * settlement's payout date decides, not the trip's dates or the approval (decision 0141).
 */
export function countsForMonth(e: PayableEntry, market: Market, month: string): boolean {
  if (e.deletedAt || e.status !== EntryStatus.Approved || !e.isPaidOut || !e.paidOutAt) return false;
  return localDate(MARKET_PROFILES[market].zone, new Date(e.paidOutAt).getTime()).slice(0, 7) === month;
}

const sum = (values: readonly Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), new Decimal(0));
const text = roundText;

/**
 * A per-diem row's taxable excess in the base currency. The row's `excessAmount` is in the row's currency
 * (EUR on a CZ trip abroad); its `amountInBaseCurrency` converts the whole payable amount, so the excess
 * converts at the same ratio, half-up to the cent, and the tax-free part is the rest: the two always add up
 * to what the row paid. A row without a statutory amount is taxable whole: payroll cannot treat as
 * tax-free what no verified rate supports (decision 0141).
 */
function perDiemExcessInBase(
  row: NonNullable<PayableEntry['perDiems']>[number],
  paidInBase: Decimal,
  digits: number,
): Decimal {
  // No statutory amount (a rate not verified, paid by an override), or the company's own rate where no
  // statutory or reported figure supports it (docs/decisions/0188): nothing is shown to be tax-free.
  if (row.amount === null || row.amount === undefined || row.rateBasis === 'CompanyRate') return paidInBase;
  if (!row.excessAmount || !row.payableAmount) return new Decimal(0);
  const excess = new Decimal(row.excessAmount);
  const payable = new Decimal(row.payableAmount);
  if (excess.isZero() || payable.isZero()) return new Decimal(0);
  return new Decimal(text(excess.times(paidInBase).dividedBy(payable), digits));
}

/**
 * A Mileage row's tax-free part: distance × the statutory rate per km (plus the fuel part in CZ and SK,
 * itself a reimbursement of costs) as the regulations price it, at most what the row pays. The product
 * prices every row at the statutory rate (expense.ts `priceMileage`), so the taxable part is 0 unless a
 * row was stored paying more.
 */
function mileageTaxFree(x: PayableEntry['expenses'][number], digits: number): Decimal {
  const paid = new Decimal(x.amountInBaseCurrency);
  if (!x.ratePerKm || !x.distanceKm) return paid;
  const distance = new Decimal(x.distanceKm);
  let statutory = distance.times(x.ratePerKm);
  if (x.fuelConsumption && x.fuelUnitPrice)
    statutory = statutory.plus(distance.times(x.fuelConsumption).dividedBy(100).times(x.fuelUnitPrice));
  return Decimal.min(paid, new Decimal(text(statutory, digits)));
}

/** The figures of one paid-out entry (its amounts are all known: only such entries are paid out). */
export function entryPayrollFigures(e: PayableEntry, digits: number): PayrollEntryFigures {
  let perDiemPaid = new Decimal(0);
  let perDiemTaxable = new Decimal(0);
  for (const row of e.perDiems ?? []) {
    const paid = new Decimal(row.amountInBaseCurrency ?? '0');
    perDiemPaid = perDiemPaid.plus(paid);
    perDiemTaxable = perDiemTaxable.plus(perDiemExcessInBase(row, paid, digits));
  }
  const mileage = e.expenses.filter((x) => x.kind === 'Mileage');
  const mileagePaid = sum(mileage.map((x) => new Decimal(x.amountInBaseCurrency)));
  const mileageFree = sum(mileage.map((x) => mileageTaxFree(x, digits)));
  const other = sum(e.expenses.filter((x) => x.kind !== 'Mileage').map((x) => new Decimal(x.amountInBaseCurrency)));
  const figures = entryFigures(e);
  return {
    entryId: e._id,
    entryNumber: e.entryNumber,
    employeeId: e.employeeId,
    paidOutAt: new Date(e.paidOutAt!).toISOString(),
    perDiemPaid: text(perDiemPaid, digits),
    perDiemTaxFree: text(perDiemPaid.minus(perDiemTaxable), digits),
    perDiemTaxable: text(perDiemTaxable, digits),
    mileagePaid: text(mileagePaid, digits),
    mileageTaxFree: text(mileageFree, digits),
    mileageTaxable: text(mileagePaid.minus(mileageFree), digits),
    otherExpenses: text(other, digits),
    advance: text(new Decimal(e.advancePaymentInBaseCurrency || '0'), digits),
    amountPaid: figures.amountDue ?? text(new Decimal(0), digits),
  };
}

/** Per employee (in the order of their first entry), the month's sums and the entries they come from. */
export function payrollRows(
  month: string,
  currencyCode: string,
  figures: readonly PayrollEntryFigures[],
  digits: number,
): PayrollRow[] {
  const byEmployee = new Map<string, PayrollEntryFigures[]>();
  for (const f of figures) byEmployee.set(f.employeeId, [...(byEmployee.get(f.employeeId) ?? []), f]);
  return [...byEmployee.entries()].map(([employeeId, own]) => {
    const sums = Object.fromEntries(
      MONEY_COLUMNS.map((c) => [c, text(sum(own.map((f) => new Decimal(f[c]))), digits)]),
    ) as Record<(typeof MONEY_COLUMNS)[number], string>;
    return { month, employeeId, currencyCode, ...sums, entryIds: own.map((f) => f.entryId) };
  });
}

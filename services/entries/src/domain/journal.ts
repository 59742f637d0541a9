// The accountant's journal (issue 23 §3, docs/decisions/0143, 0144): double-entry lines of the approved,
// paid-out entries, in the base currency, every line naming its entry. Balanced by construction: a line
// pair is the only thing `entryJournal` makes, one debit and one credit of the same amount. Pure: no I/O.
import { MARKET_PROFILES } from '@travel/per-diem';
import { localDate } from '@travel/per-diem/src/time';
import type { Market } from '@travel/platform';
import { Decimal, roundText } from './amounts';
import { EXPENSE_KINDS, type ExpenseKind } from './expense';
import type { PayableEntry } from './payout';

/** What a company maps to its own account numbers: cost accounts by kind, advances, payables, bank. */
export const JOURNAL_ACCOUNT_KEYS = [
  'perDiems',
  ...EXPENSE_KINDS,
  'advancesToEmployees',
  'payablesToEmployees',
  'bank',
] as const;
export type JournalAccountKey = (typeof JOURNAL_ACCOUNT_KEYS)[number];
export type JournalAccounts = Record<JournalAccountKey, string | null>;

const allKeys = (account: string | null): JournalAccounts =>
  Object.fromEntries(JOURNAL_ACCOUNT_KEYS.map((k) => [k, account])) as JournalAccounts;

/**
 * Defaults per market's chart of accounts, only where a source confirmed them (decision 0144).
 * CZ (směrná účtová osnova) and SK (rámcová účtová osnova): every travel cost on 512 Cestovné, the advance
 * on 335, the employee's claim on 333, the bank on 221. PL, HR, SI: no account number confirmed in a
 * source read: null, and the company sets its own before the first export.
 */
export const DEFAULT_JOURNAL_ACCOUNTS: Record<Market, JournalAccounts> = {
  CZ: { ...allKeys('512'), advancesToEmployees: '335', payablesToEmployees: '333', bank: '221' },
  SK: { ...allKeys('512'), advancesToEmployees: '335', payablesToEmployees: '333', bank: '221' },
  PL: allKeys(null),
  HR: allKeys(null),
  SI: allKeys(null),
};

/** The company's accounts over the market's defaults. */
export const effectiveAccounts = (market: Market, own: Partial<JournalAccounts> | null): JournalAccounts => ({
  ...DEFAULT_JOURNAL_ACCOUNTS[market],
  ...Object.fromEntries(Object.entries(own ?? {}).filter(([, v]) => v !== null && v !== undefined)),
});

/** An account number: 1–20 letters, digits, `.` and `-` (the contract's pattern; a sub-account such as 512.100). */
export const JOURNAL_ACCOUNT_NUMBER = /^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$/;

/** Field errors of a PUT body's `accounts` (keys known, values account numbers or null). */
export function accountErrors(accounts: unknown): Record<string, string[]> {
  if (typeof accounts !== 'object' || accounts === null || Array.isArray(accounts))
    return { accounts: ['must be an object of account numbers by key'] };
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(accounts)) {
    if (!(JOURNAL_ACCOUNT_KEYS as readonly string[]).includes(key))
      errors[`accounts.${key}`] = [`is not an account key (${JOURNAL_ACCOUNT_KEYS.join(', ')})`];
    else if (value !== null && (typeof value !== 'string' || !JOURNAL_ACCOUNT_NUMBER.test(value)))
      errors[`accounts.${key}`] = ['must be an account number (1–20 letters, digits, . and -) or null'];
  }
  return errors;
}

/** One line of the journal: a debit or a credit on one account, traceable to its entry. */
export interface JournalLine {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  /** `<entryNumber or id>/<n>`: the transaction the line belongs to (its debit and its credit). */
  transaction: string;
  date: string;
  /** What the account is for (`perDiems`, an expense kind, `advancesToEmployees`, …). */
  accountKey: JournalAccountKey;
  /** The company's account number; '' when neither the company nor a verified default gives one. */
  account: string;
  debit: string;
  credit: string;
  currencyCode: string;
  text: string;
}

const COST_TEXT: Record<'perDiems' | ExpenseKind, string> = {
  perDiems: 'Per-diems',
  Mileage: 'Mileage',
  Fuel: 'Fuel',
  Toll: 'Tolls',
  Parking: 'Parking',
  Accommodation: 'Accommodation',
  PublicTransport: 'Public transport',
  Meals: 'Meals',
  Other: 'Other expenses',
};

/**
 * The entry's transactions, each one debit and one credit of the same positive amount:
 * the advance paid (advances / bank, on its date), the settlement's costs by kind (cost / payables, on the
 * approval date), the advance set off against the claim (payables / advances, the lower of the two), and the
 * payout of the rest (payables / bank) or the employee's repayment of an advance above the claim
 * (bank / advances), on the payout date. Dates are in the market's calendar.
 */
export function entryJournal(
  e: PayableEntry,
  market: Market,
  accounts: JournalAccounts,
  digits: number,
): JournalLine[] {
  const zone = MARKET_PROFILES[market].zone;
  const day = (d: Date | string | null | undefined, fallback: string): string =>
    d ? localDate(zone, new Date(d).getTime()) : fallback;
  const paidOn = day(e.paidOutAt, e.returnDate);
  const approvedOn = day(e.approvedAt, paidOn);
  const lines: JournalLine[] = [];
  let n = 0;
  const ref = e.entryNumber || e._id;
  const pair = (date: string, debit: JournalAccountKey, credit: JournalAccountKey, amount: Decimal, text: string) => {
    if (amount.isZero()) return;
    n += 1;
    const common = {
      entryId: e._id,
      entryNumber: e.entryNumber,
      employeeId: e.employeeId,
      transaction: `${ref}/${n}`,
      date,
      currencyCode: e.baseCurrency,
      text: `${text} (${ref})`,
    };
    const value = roundText(amount, digits);
    const zero = roundText(new Decimal(0), digits);
    lines.push({ ...common, accountKey: debit, account: accounts[debit] ?? '', debit: value, credit: zero });
    lines.push({ ...common, accountKey: credit, account: accounts[credit] ?? '', debit: zero, credit: value });
  };

  const advance = new Decimal(e.advancePaymentInBaseCurrency || '0');
  pair(e.advancePaymentDate || approvedOn, 'advancesToEmployees', 'bank', advance, 'Advance paid');

  const costs = new Map<'perDiems' | ExpenseKind, Decimal>();
  const add = (key: 'perDiems' | ExpenseKind, amount: string | null | undefined) =>
    costs.set(key, (costs.get(key) ?? new Decimal(0)).plus(amount ?? '0'));
  for (const row of e.perDiems ?? []) add('perDiems', row.amountInBaseCurrency);
  for (const x of e.expenses) add(x.kind, x.amountInBaseCurrency);
  let claim = new Decimal(0);
  for (const [key, amount] of costs) {
    const rounded = new Decimal(roundText(amount, digits));
    claim = claim.plus(rounded);
    pair(approvedOn, key, 'payablesToEmployees', rounded, COST_TEXT[key]);
  }

  pair(approvedOn, 'payablesToEmployees', 'advancesToEmployees', Decimal.min(advance, claim), 'Advance set off');
  if (claim.greaterThan(advance))
    pair(paidOn, 'payablesToEmployees', 'bank', claim.minus(advance), 'Paid to the employee');
  else pair(paidOn, 'bank', 'advancesToEmployees', advance.minus(claim), 'Advance repaid by the employee');
  return lines;
}

/** The accounts the lines need that the company has not set and no verified default gives. */
export const missingAccounts = (lines: readonly JournalLine[]): JournalAccountKey[] =>
  JOURNAL_ACCOUNT_KEYS.filter((k) => lines.some((l) => l.accountKey === k && !l.account));

/** Debits and credits of lines, summed exactly. */
export function journalTotals(lines: readonly JournalLine[], digits: number): { debit: string; credit: string } {
  const sum = (pick: (l: JournalLine) => string) =>
    roundText(
      lines.reduce((a, l) => a.plus(pick(l)), new Decimal(0)),
      digits,
    );
  return { debit: sum((l) => l.debit), credit: sum((l) => l.credit) };
}

/** Whether a YYYY-MM-DD date lies in [from, to] (inclusive, both dates). */
export const inPeriod = (date: string, from: string, to: string): boolean => date >= from && date <= to;

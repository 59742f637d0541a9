// An entry's money figures, computed here and nowhere else (docs/decisions/0109): the expense total, the
// per-diem total, their sum and the amount due. The entry's reads, its allocation check, the
// `entries.entry-state.changed` event and the payout steps all take them from `entryFigures`; the payouts
// context receives them and never sums an entry itself. Pure: no I/O.
import { Decimal, minorDigitsOf, sumText } from './amounts';

/** What the figures are computed from (the stored entry, or the rows a write is about to store). */
export interface FigureParts {
  expenses?: readonly { amountInBaseCurrency: string }[] | null;
  /** A row still waiting for a verified rate has no amount (null). */
  perDiems?: readonly { amountInBaseCurrency: string | null | undefined }[] | null;
  advancePaymentInBaseCurrency?: string | null;
}

/** Decimal text in the base currency, padded to its minor digits. */
export interface EntryFigures {
  expenseTotal: string;
  /** Null when any per-diem row's amount is unknown: never a partial sum, never 0. */
  perDiemTotal: string | null;
  /** Expenses + per-diems; null when the per-diem total is unknown. */
  total: string | null;
  /** Expenses + per-diems − the advance (negative: the employee owes money back); null when not known. */
  amountDue: string | null;
  /** Why the entry cannot be paid out whatever its status (its amount due is not known); null otherwise. */
  payoutBlockedReason: string | null;
}

/** The rows (by index) whose base-currency amount is unknown. */
const unknownRows = (perDiems: FigureParts['perDiems']): number[] =>
  (perDiems ?? []).flatMap((r, i) =>
    r.amountInBaseCurrency === null || r.amountInBaseCurrency === undefined ? [i] : [],
  );

/** The figures with `digits` decimals (the base currency's minor digits). */
export function figuresIn(parts: FigureParts, digits: number): EntryFigures {
  const expenseTotal = sumText(
    (parts.expenses ?? []).map((x) => x.amountInBaseCurrency),
    digits,
  );
  const unknown = unknownRows(parts.perDiems);
  if (unknown.length)
    return {
      expenseTotal,
      perDiemTotal: null,
      total: null,
      amountDue: null,
      payoutBlockedReason: `The per-diem total is not known: ${unknown.map((i) => `perDiems[${i}]`).join(', ')} ${
        unknown.length === 1 ? 'has' : 'have'
      } no amount yet (its rate is not verified, or an exchange rate is missing). The entry cannot be paid out until every per-diem row has an amount (an override or a manual rate).`,
    };
  const perDiemTotal = sumText(
    (parts.perDiems ?? []).map((r) => r.amountInBaseCurrency!),
    digits,
  );
  const total = new Decimal(expenseTotal).plus(perDiemTotal);
  return {
    expenseTotal,
    perDiemTotal,
    total: total.toFixed(digits),
    amountDue: total.minus(parts.advancePaymentInBaseCurrency || '0').toFixed(digits),
    payoutBlockedReason: null,
  };
}

/** The figures of an entry, in its base currency's minor digits. */
export const entryFigures = (e: FigureParts & { baseCurrency: string }): EntryFigures =>
  figuresIn(e, minorDigitsOf(e.baseCurrency));

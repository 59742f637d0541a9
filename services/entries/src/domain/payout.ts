// What the payouts context needs to know about an entry (docs/decisions/0074): whether it can be paid
// out and how much is due to the employee. Pure: no I/O.
import { Decimal, minorDigitsOf } from './amounts';
import { EntryStatus, type TravelEntry } from './entry';

/** Fields an entry carries for payouts, beside the TravelEntry ones (stored on the same document). */
export interface PayoutFields {
  /** The payout batch that reserved or paid the entry out; a reserved entry is locked. */
  payoutBatchId?: string | null;
  /** When the entry reached Approved (set by the workflow; absent on entries approved before it was kept). */
  approvedAt?: Date | null;
  /** Stored per-diem rows; a row still waiting for a manual rate (amount null) counts nothing yet. */
  perDiems?: readonly { amountInBaseCurrency: string | null }[] | null;
}

export type PayableEntry = TravelEntry & PayoutFields;

/**
 * Expenses plus per-diems minus the advance paid, in the base currency, as decimal text in its minor
 * digits. Negative when the employee owes money back.
 */
export function amountDue(
  e: Pick<PayableEntry, 'expenses' | 'perDiems' | 'advancePaymentInBaseCurrency' | 'baseCurrency'>,
): string {
  const places = minorDigitsOf(e.baseCurrency);
  let total = new Decimal(0);
  for (const x of e.expenses ?? []) total = total.plus(x.amountInBaseCurrency);
  for (const p of e.perDiems ?? []) total = total.plus(p.amountInBaseCurrency ?? '0');
  return total.minus(e.advancePaymentInBaseCurrency || '0').toFixed(places);
}

/** Why an entry cannot be reserved for a payout batch, or undefined when it can (by this batch). */
export function refusalToReserve(e: PayableEntry | null, batchId: string): string | undefined {
  if (!e || e.deletedAt) return 'does not exist';
  if (e.payoutBatchId && e.payoutBatchId !== batchId) return 'is already in another payout batch';
  if (e.isPaidOut) return 'is already paid out';
  if (e.status !== EntryStatus.Approved) return 'is not approved';
  if (new Decimal(amountDue(e)).isZero()) return 'has nothing due (amount due 0)';
  return undefined;
}

// Payout batches (docs/decisions/0075, 0077). Pure: no I/O.
import { compactIban, Decimal, isIban, minorDigits } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { directionOf, type Direction } from './ready';

export const PAYOUT_METHODS = ['BankTransfer', 'Cash', 'Payroll'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * `pending`: written first; entries are being reserved. `releasing`: refused or stale, reservations being given back. `committing`: every entry is reserved, they are
 * being marked paid out. `completed`: all paid out. `rolledBack`: refused or recovered before commit
 * (never shown). `undoing`: being deleted. `deleted`: undone (never shown).
 */
export type BatchState = 'pending' | 'releasing' | 'committing' | 'completed' | 'rolledBack' | 'undoing' | 'deleted';

export interface BatchEntry {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  /** Decimal text in the base currency, as reserved. */
  amountDue: string;
  direction: Direction;
}

/**
 * A payee's bank data as it was when the batch was made (docs/decisions/0111): the payment file uses it,
 * whatever the employee record says later. Personal data: never in a response, an event or a log.
 */
export interface BatchPayee {
  employeeId: string;
  name: string;
  /** Null when the record had no valid IBAN: the payment file is then refused (409). */
  iban: string | null;
  bic: string | null;
}

export interface Batch {
  _id: string;
  tenantId: string;
  state: BatchState;
  payoutMethod: PayoutMethod;
  currencyCode: string;
  entryIds: string[];
  entries: BatchEntry[];
  /** BankTransfer: the bank data of every employee paid by the batch, taken when it was made (0111). */
  payees?: BatchPayee[];
  /** The entries' reservations lapse then unless committed (docs/decisions/0110); null on older batches. */
  reservedUntil?: Date | null;
  createdAt: Date;
  createdByEmployeeId: string;
  completedAt: Date | null;
  /**
   * Batches made before docs/decisions/0191: the first download of their payment file made them final.
   * Nothing sets it any more (a download changes nothing); a batch that has it stays final.
   */
  paymentFileDownloadedAt: Date | null;
  /** Marked sent to the bank (docs/decisions/0191): who, when; final from then on. Null until then. */
  sentToBank?: SentToBank | null;
  deletedAt: Date | null;
  /** When the state last changed: recovery leaves a batch alone while a request may still be working on it. */
  stateAt: Date;
  rev: number;
}

/** The audit of the mark "sent to the bank" (docs/decisions/0191). */
export interface SentToBank {
  at: Date;
  employeeId: string;
  /** Who issued the API key used, when that is not `employeeId` (docs/decisions/0104); null otherwise. */
  keyIssuedByEmployeeId: string | null;
}

/** A batch can be undone for this long after it was made, and never once it was marked sent to the bank. */
export const UNDO_WINDOW_DAYS = 30;

type Finality = Pick<Batch, 'paymentFileDownloadedAt' | 'sentToBank'>;

/** When the batch became final: marked sent to the bank, or (made before 0191) its file first downloaded. */
export const finalSince = (b: Finality): Date | null => b.sentToBank?.at ?? b.paymentFileDownloadedAt ?? null;

export function deletableUntil(b: Pick<Batch, 'state' | 'createdAt'> & Finality): Date | null {
  if (b.state !== 'completed' || finalSince(b)) return null;
  return new Date(b.createdAt.getTime() + UNDO_WINDOW_DAYS * 86_400_000);
}

/** Why the batch cannot be deleted now, or undefined. */
export function refusalToDelete(b: Batch, now: Date): string | undefined {
  if (b.sentToBank)
    return 'This batch was marked sent to the bank: the transfers may be under way, so the batch can no longer be undone.';
  if (b.paymentFileDownloadedAt)
    return 'The payment file of this batch was downloaded before downloads stopped marking batches: it is final, so the batch can no longer be undone.';
  const until = deletableUntil(b);
  if (!until || until.getTime() < now.getTime())
    return `A batch can be undone for ${UNDO_WINDOW_DAYS} days after it was made; this one is older.`;
  return undefined;
}

/** Field errors of the entry ids of a create: each at most once. */
export function duplicateIds(entryIds: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  const seen = new Map<string, number>();
  entryIds.forEach((raw, i) => {
    const id = raw.toLowerCase();
    if (seen.has(id)) errors[`entryIds[${i}]`] = [`repeats entryIds[${seen.get(id)}]`];
    else seen.set(id, i);
  });
  return errors;
}

export const batchEntry = (r: {
  entryId: string;
  entryNumber: string;
  employeeId: string;
  amountDue: string;
}): BatchEntry => ({
  entryId: r.entryId,
  entryNumber: r.entryNumber,
  employeeId: r.employeeId,
  amountDue: r.amountDue,
  direction: directionOf(r.amountDue),
});

/** What the company pays (positive amounts) and what employees owe back (negative amounts, as a positive sum). */
export function totals(
  entries: readonly BatchEntry[],
  currency: string,
): { toEmployees: string; fromEmployees: string } {
  let to = new Decimal(0);
  let from = new Decimal(0);
  for (const e of entries) {
    const a = new Decimal(e.amountDue);
    if (a.isNegative()) from = from.minus(a);
    else to = to.plus(a);
  }
  const places = minorDigits(currency);
  return { toEmployees: to.toFixed(places), fromEmployees: from.toFixed(places) };
}

/** The entries a payment file pays: a positive amount due (what employees owe back is never transferred). */
export const transferred = (entries: readonly BatchEntry[]): BatchEntry[] =>
  entries.filter((e) => new Decimal(e.amountDue).isPositive() && !new Decimal(e.amountDue).isZero());

/**
 * The bank data a BankTransfer batch keeps (docs/decisions/0111): one payee per employee it pays, from the
 * employee records read when it is made; an IBAN that is missing or not valid is kept as null.
 */
export function payeeSnapshot(
  entries: readonly BatchEntry[],
  records: readonly { id: string; name: string; bankAccount: string | null; bic: string | null }[],
): BatchPayee[] {
  const paid = new Set(transferred(entries).map((e) => e.employeeId));
  return records
    .filter((r) => paid.has(r.id))
    .map((r) => {
      const iban = r.bankAccount ? compactIban(r.bankAccount) : '';
      return { employeeId: r.id, name: r.name, iban: isIban(iban) ? iban : null, bic: r.bic };
    });
}

/** The indexes (in `entries`) of the transfers whose payee has no valid IBAN in `payees`. */
export function withoutBankAccount(entries: readonly BatchEntry[], payees: readonly BatchPayee[]): number[] {
  const paid = transferred(entries);
  const ibanOf = new Map(payees.map((p) => [p.employeeId, p.iban]));
  return entries.flatMap((e, i) => (paid.includes(e) && !ibanOf.get(e.employeeId) ? [i] : []));
}

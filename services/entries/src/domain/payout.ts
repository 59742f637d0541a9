// What the payouts context needs to know about an entry (docs/decisions/0074, 0109, 0110): whether it can
// be reserved for a payout batch and how much is due (from `entryFigures`, the one place it is computed).
// Pure: no I/O.
import { Decimal } from './amounts';
import { EntryStatus, type TravelEntry } from './entry';
import { entryFigures } from './entry-figures';

/** Fields an entry carries for payouts, beside the TravelEntry ones (stored on the same document). */
export interface PayoutFields {
  /** The payout batch that reserved or paid the entry out; a reserved entry is locked. */
  payoutBatchId?: string | null;
  /**
   * When a reservation that was not committed lapses (docs/decisions/0110): past it, another batch may take
   * the entry. Null once paid out, and on reservations made before deadlines were kept (they hold until released).
   */
  payoutReservedUntil?: Date | null;
  /** When the entry reached Approved (set by the workflow; absent on entries approved before it was kept). */
  approvedAt?: Date | null;
}

export type PayableEntry = TravelEntry & PayoutFields;

/** Whether the entry is held by its batch now: paid out by it, or reserved and the deadline not passed. */
export const heldByBatch = (e: PayoutFields & Pick<TravelEntry, 'isPaidOut'>, now: Date): boolean =>
  !!e.payoutBatchId &&
  (e.isPaidOut || !e.payoutReservedUntil || new Date(e.payoutReservedUntil).getTime() > now.getTime());

/** Why an entry cannot be reserved for a payout batch, or undefined when it can (by this batch). */
export function refusalToReserve(e: PayableEntry | null, batchId: string, now: Date): string | undefined {
  if (!e || e.deletedAt) return 'does not exist';
  if (e.payoutBatchId && e.payoutBatchId !== batchId && heldByBatch(e, now))
    return 'is already in another payout batch';
  if (e.isPaidOut) return 'is already paid out';
  if (e.status !== EntryStatus.Approved) return 'is not approved';
  const figures = entryFigures(e);
  if (figures.amountDue === null) return figures.payoutBlockedReason!;
  if (new Decimal(figures.amountDue).isZero()) return 'has nothing due (amount due 0)';
  return undefined;
}

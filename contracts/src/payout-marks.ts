// The entries context's internal payout routes (`POST /internal/tenants/{t}/payout-batches/{b}/{step}`,
// docs/decisions/0075): what payouts sends and what entries answers, written once for both sides.

/** The steps of a batch, in order: reserve, then commit or release; undo reverses a committed batch. */
export const PAYOUT_BATCH_STEPS = ['reserve', 'commit', 'release', 'undo'] as const;
export type PayoutBatchStep = (typeof PAYOUT_BATCH_STEPS)[number];

/**
 * The body of every step. `reservedUntil` (ISO 8601; sent with `reserve`): the reservations lapse then
 * unless committed, and a reserve arriving after it reserves nothing (docs/decisions/0110).
 */
export interface PayoutStepRequest {
  entryIds: string[];
  reservedUntil?: string;
}

/** One entry's answer to a step of a batch. */
export interface PayoutMark {
  entryId: string;
  ok: boolean;
  /** Why the step was refused for this entry (only when `ok` is false). */
  reason?: string;
  entryNumber?: string;
  employeeId?: string;
  /** Decimal text in the base currency; negative when the employee owes money back; null when not known (0109). */
  amountDue?: string | null;
  baseCurrency?: string;
  isPaidOut?: boolean;
  /** The entry's revision after the step. */
  rev?: number;
}

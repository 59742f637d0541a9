import type { Payee, Payees, PayoutBatchStep, PayoutMark } from '@travel/contracts';

export type { Payee };

/** One entry's answer to a step of a batch (the entries context's internal payout routes). */
export type EntryMark = PayoutMark;
export type BatchStep = PayoutBatchStep;

/**
 * The entries context, as a batch needs it (docs/decisions/0075). Every step is idempotent per batch; a
 * reserve names the reservations' deadline (0110).
 */
export interface EntryMarks {
  run(
    step: BatchStep,
    tenantId: string,
    batchId: string,
    entryIds: readonly string[],
    reservedUntil: Date | null,
  ): Promise<EntryMark[]>;
}

/** The employees context: the payer's name, and the payees' bank data a BankTransfer batch keeps (0111). */
export interface PayeeDirectory {
  payees(tenantId: string, employeeIds: readonly string[]): Promise<Pick<Payees, 'company' | 'payees'>>;
}

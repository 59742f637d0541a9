import { wireNumber } from './amounts';
import { isLocked, type TravelEntry } from './entry';

/**
 * TravelEntryWebhookDto: the summary pushed to partners. Built field by field (never by copying and
 * deleting), so no nested detail, destination or free text can leak into a webhook. `sequence` is the
 * entry document's revision at the write (docs/decisions/0228): it orders the changes of one entry.
 */
export function toEntryWebhookDto(e: TravelEntry, sequence: number) {
  return {
    id: e._id,
    entryNumber: e.entryNumber,
    employeeId: e.employeeId,
    departureDate: e.departureDate,
    returnDate: e.returnDate,
    status: e.status as number,
    phase: e.phase,
    isRequest: e.isRequest,
    isLocked: isLocked(e),
    isPaidOut: e.isPaidOut,
    paidOutAt: e.paidOutAt ? e.paidOutAt.toISOString() : null,
    advancePayment: wireNumber(e.advancePayment),
    currencyCode: e.currencyCode,
    advancePaymentInBaseCurrency: wireNumber(e.advancePaymentInBaseCurrency),
    createdAt: e.createdAt.toISOString(),
    editedAt: e.editedAt.toISOString(),
    sequence,
  };
}

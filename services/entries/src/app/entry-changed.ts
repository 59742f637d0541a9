// The internal `entries.entry-state.changed` event (contracts/events/internal/entries.entry-state.changed.schema.json,
// docs/decisions/0074): raised in the same single-document write as every change of an entry that can
// change whether it is ready for payout or what is due. No personal data.
import type { EventData } from '@travel/contracts';
import { raiseEvent, type OutboxEvent } from '@travel/platform';
import { entryFigures } from '../domain/entry-figures';
import type { PayableEntry } from '../domain/payout';
import { EntryStatus } from '../domain/entry';

export const ENTRY_CHANGED = 'entry-state.changed';

export type EntryChangedData = EventData<'entries.entry-state.changed'>;

/** The event of `entry` as it is after the write that stores it at revision `rev`. */
export function entryChanged(entry: PayableEntry, rev: number, now = new Date()): OutboxEvent<EntryChangedData> {
  const data: EntryChangedData = {
    entryId: entry._id,
    entryNumber: entry.entryNumber ?? '',
    employeeId: entry.employeeId,
    status: entry.status as EntryChangedData['status'],
    isPaidOut: entry.isPaidOut ?? false,
    deleted: !!entry.deletedAt,
    approvedAt:
      entry.status === EntryStatus.Approved && entry.approvedAt ? new Date(entry.approvedAt).toISOString() : null,
    baseCurrency: entry.baseCurrency,
    amountDue: entryFigures(entry).amountDue,
    rev,
  };
  return raiseEvent('entries', ENTRY_CHANGED, entry.tenantId, data, now);
}

// The internal `entries.entry-state.changed` event (contracts/events/internal/entries.entry-state.changed.schema.json,
// docs/decisions/0074): raised in the same single-document write as every change of an entry that can
// change whether it is ready for payout or what is due. No personal data.
import type { EventData } from '@travel/contracts';
import { parseTenantId, raiseEvent, RevisionConflict, type OutboxEvent } from '@travel/platform';
import type { EntriesRepositories } from '../infra/repositories';
import { entryFigures, type EntryFigures } from '../domain/entry-figures';
import type { PayableEntry } from '../domain/payout';
import { EntryStatus } from '../domain/entry';
import { SERVICE } from '../service-name';

export const ENTRY_CHANGED = 'entry-state.changed';

export type EntryChangedData = EventData<'entries.entry-state.changed'>;

/** The event of `entry` as it is after the write that stores it at revision `rev` (its figures, if known). */
export function entryChanged(
  entry: PayableEntry,
  rev: number,
  now = new Date(),
  figures: Pick<EntryFigures, 'amountDue'> = entryFigures(entry),
): OutboxEvent<EntryChangedData> {
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
    amountDue: figures.amountDue,
    rev,
  };
  return raiseEvent(SERVICE, ENTRY_CHANGED, entry.tenantId, data, now);
}

/**
 * Start-up migration (docs/decisions/0109): before it, an approved entry with a per-diem row without an
 * amount was announced with that row counted as 0, so the ready list may show it. Each such entry raises
 * the event again, now with `amountDue: null`, once (marked in the same write). Returns how many.
 */
export async function announceUnknownAmountsDue(
  repos: Pick<EntriesRepositories, 'entries' | 'unknownDueNotAnnounced'>,
): Promise<number> {
  let announced = 0;
  for (const doc of await repos.unknownDueNotAnnounced()) {
    try {
      await repos.entries
        .of(parseTenantId(doc.tenantId))
        .commit(doc, { $set: { unknownDueAnnounced: true } }, entryChanged(doc, doc.rev + 1));
      announced += 1;
    } catch (err) {
      if (!(err instanceof RevisionConflict)) throw err; // a concurrent write raised the event itself
    }
  }
  return announced;
}

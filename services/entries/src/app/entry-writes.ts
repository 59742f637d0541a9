// The one way a travel entry is stored (docs/decisions/0224): the use cases decide what changes and which
// partner event announces it; this module builds the entry as it will be stored, raises that event with the
// entry's webhook summary, adds the internal `entries.entry-state.changed` (docs/decisions/0074) and
// commits all of it in one conditional single-document write at the revision read (docs/decisions/0170).
import { raiseEvent, type Change, type OutboxEvent, type TenantId } from '@travel/platform';
import { SERVICE } from '../service-name';
import { entryFigures, type EntryFigures } from '../domain/entry-figures';
import type { TravelEntry } from '../domain/entry';
import type { PayableEntry } from '../domain/payout';
import { toEntryWebhookDto } from '../domain/webhook';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import { entryChanged } from './entry-changed';

/** The partner events of an entry's change (SPEC's event catalog); `entry.created` is the create's alone. */
export type EntryAnnouncement = 'entry.updated' | 'entry.approved' | 'entry.paidout';

/** What a use case decided: the fields that change and how the change is announced. */
export interface EntryChange {
  /** The stored fields the write sets (`editedAt` among them when partners see the change). */
  readonly set: Partial<EntryDoc>;
  /**
   * The partner event, or null: a soft delete has no webhook, an authorization's comes with its number
   * (a later write), a payout reservation changes nothing partners see.
   */
  readonly announce: EntryAnnouncement | null;
  /** The instant the events carry. */
  readonly at: Date;
  /** Further events of the same write (vehicle uses, attachment events). */
  readonly also?: readonly OutboxEvent[];
  /** The write's further condition; by default the entry is not deleted. */
  readonly where?: Change['where'];
}

export interface AppliedChange {
  /** The entry as stored, at its new revision. */
  readonly entry: EntryDoc;
  /** Its figures, worked out once for the write (the state event carries the amount due). */
  readonly figures: EntryFigures;
}

export class EntryWrites {
  constructor(private readonly repos: Pick<EntriesRepositories, 'entries'>) {}

  /**
   * Inserts a new entry at revision 0 with `entry.created` and its state event; `stored` are fields kept
   * with the document that are not the entry's own (bookkeeping), `also` further events of the insert.
   */
  async create(
    tenant: TenantId,
    entry: TravelEntry,
    at: Date,
    stored: Partial<EntryDoc> = {},
    also: readonly OutboxEvent[] = [],
  ): Promise<void> {
    await this.repos.entries
      .of(tenant)
      .create(
        { ...entry, ...stored, rev: 0 },
        raiseEvent(SERVICE, 'entry.created', tenant, toEntryWebhookDto(entry), at),
        entryChanged(entry, 0, at),
        ...also,
      );
  }

  /**
   * Commits `change` on `current` (read in `tenant`'s scope) at the revision read; another write first
   * throws RevisionConflict, which `withRevisionRetry` answers by deciding again on the entry read anew.
   */
  async apply(tenant: TenantId, current: EntryDoc, change: EntryChange): Promise<AppliedChange> {
    const entry = { ...current, ...change.set, rev: current.rev + 1 } as EntryDoc;
    const figures = entryFigures(entry);
    const events: OutboxEvent[] = [];
    if (change.announce) events.push(raiseEvent(SERVICE, change.announce, tenant, toEntryWebhookDto(entry), change.at));
    // Every change tells payouts, whether or not it moved what payouts keeps: no use case decides that.
    events.push(entryChanged(entry as PayableEntry, entry.rev, change.at, figures));
    events.push(...(change.also ?? []));
    await this.repos.entries
      .of(tenant)
      .commit(current, { $set: change.set, where: change.where ?? { deletedAt: null } }, ...events);
    return { entry, figures };
  }
}

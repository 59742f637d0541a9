import type { PayoutBatchStep, PayoutMark } from '@travel/contracts';
// The entries side of a payout batch (docs/decisions/0075): payouts reserves the entries of a new batch,
// then commits them (paid out, locked, `entry.paidout`), releases them when the batch is refused or rolled
// back, and undoes them when the batch is deleted (`entry.updated`). A reservation carries the batch's
// deadline (docs/decisions/0110): past it, another batch may take the entry, and a reserve that arrives
// after it (a request that stalled in transit) reserves nothing. Every step is one conditional
// single-document write per entry at the revision read, with its events in the same write, and is
// idempotent per batch: payouts repeats a step after a crash and gets the same answer. Closed accounting
// periods (docs/decisions/0211): a reserve dated in a closed month and an undo of entries paid out in one
// are refused whole (409 PERIOD_CLOSED); a commit or undo holds its months while it writes (PayoutPeriods).
import { parseTenantId, withRevisionRetry, type TenantId } from '@travel/platform';
import { entryFigures, type EntryFigures } from '../domain/entry-figures';
import { refusalToReserve, type PayableEntry } from '../domain/payout';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import { EntryWrites } from './entry-writes';
import type { PayoutHold, PayoutPeriods } from './payout-periods';

export type { PayoutMark };

type Step = PayoutBatchStep;

const figures = (
  e: PayableEntry & { rev: number },
  rev = e.rev,
  known: Pick<EntryFigures, 'amountDue'> = entryFigures(e),
): PayoutMark => ({
  entryId: e._id,
  ok: true,
  entryNumber: e.entryNumber,
  employeeId: e.employeeId,
  amountDue: known.amountDue,
  baseCurrency: e.baseCurrency,
  isPaidOut: e.isPaidOut,
  rev,
});

/** Entries handled at once per call (the store serializes the writes anyway). */
const PARALLEL = 8;

/** A commit or undo that ran past its hold on the months: not written, the step is repeated (0211). */
const OUT_OF_TIME = 'was not marked: the step ran past its hold on the accounting period; it is repeated';

export class PayoutMarks {
  /** Without `periods` (unit tests of the marks alone), no period is closed. */
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'>,
    private readonly periods?: PayoutPeriods,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  async run(
    step: Step,
    tenantId: TenantId,
    batchId: string,
    entryIds: readonly string[],
    reservedUntil: Date | null = null,
  ): Promise<PayoutMark[]> {
    const ids = entryIds.map((id) => id.toLowerCase());
    // One instant for the step: the payout date of every entry it commits, and the month checked for it.
    const at = new Date();
    const hold = await this.periodsFor(step, tenantId, batchId, ids, at);
    try {
      const out: PayoutMark[] = [];
      for (let i = 0; i < ids.length; i += PARALLEL)
        out.push(
          ...(await Promise.all(
            ids.slice(i, i + PARALLEL).map((id) => this.one(step, tenantId, batchId, id, reservedUntil, at, hold)),
          )),
        );
      return out;
    } finally {
      await hold?.release();
    }
  }

  /**
   * The closed-period check of a step (0211), before any entry is written: a reserve is refused when today
   * lies in a closed month; a commit or undo holds the months it writes in (refused, whole, when one is
   * closed). A step with nothing left to write (repeated after it was done) needs no month.
   */
  private async periodsFor(
    step: Step,
    tenantId: TenantId,
    batchId: string,
    ids: readonly string[],
    at: Date,
  ): Promise<PayoutHold | undefined> {
    if (!this.periods || step === 'release') return undefined;
    if (step === 'reserve') {
      await this.periods.refusePayout(tenantId, at);
      return undefined;
    }
    const docs = (await this.repos.entries
      .of(tenantId)
      .find({ _id: { $in: [...ids] } })
      .lean()) as unknown as (EntryDoc & PayableEntry)[];
    const ours = docs.filter((d) => d.payoutBatchId === batchId);
    if (step === 'commit')
      return ours.some((d) => !d.isPaidOut) ? this.periods.holdForCommit(tenantId, batchId, at) : undefined;
    const paidOutAt = ours.filter((d) => d.isPaidOut && d.paidOutAt).map((d) => new Date(d.paidOutAt!));
    return this.periods.holdForUndo(tenantId, batchId, paidOutAt);
  }

  private one(
    step: Step,
    tenantId: TenantId,
    batchId: string,
    entryId: string,
    reservedUntil: Date | null,
    at: Date,
    hold: PayoutHold | undefined,
  ): Promise<PayoutMark> {
    return withRevisionRetry(
      'travel entry',
      async () => {
        const doc = (await this.repos.entries.of(tenantId).get(entryId)) as (EntryDoc & PayableEntry) | null;
        switch (step) {
          case 'reserve':
            return this.reserve(doc, entryId, batchId, reservedUntil);
          case 'commit':
            return this.commit(doc, entryId, batchId, at, hold);
          case 'release':
            return this.release(doc, entryId, batchId);
          case 'undo':
            return this.undo(doc, entryId, batchId, hold);
        }
      },
      25,
    );
  }

  /**
   * A reservation's bookkeeping, which partners do not see and payouts learns from the step's answer: at
   * the revision read, without events (a lost race throws RevisionConflict: the step runs again).
   */
  private async mark(doc: EntryDoc, $set: Partial<EntryDoc>): Promise<boolean> {
    // The entry was read in its tenant's scope; the write goes through the same tenant (0081).
    await this.repos.entries.of(parseTenantId(doc.tenantId)).commit(doc, { $set });
    return true;
  }

  /** A change partners see (paid out, or not any more): through EntryWrites, at the revision read. */
  private async change(doc: EntryDoc, set: Partial<EntryDoc>, announce: 'entry.paidout' | 'entry.updated', at: Date) {
    const applied = await this.writes.apply(parseTenantId(doc.tenantId), doc, { set, announce, at, where: {} });
    return figures(applied.entry as EntryDoc & PayableEntry, applied.entry.rev, applied.figures);
  }

  /**
   * Approved, not paid out, not deleted, a known amount due, not held by another batch: now this batch's
   * (and locked) until `reservedUntil`. Past the deadline nothing is reserved: the batch has given up.
   */
  private async reserve(
    doc: (EntryDoc & PayableEntry) | null,
    entryId: string,
    batchId: string,
    reservedUntil: Date | null,
  ) {
    const now = new Date();
    if (reservedUntil && reservedUntil.getTime() <= now.getTime() && doc?.payoutBatchId !== batchId)
      return { entryId, ok: false, reason: 'was not reserved: the batch’s reservation deadline has passed' };
    const refusal = refusalToReserve(doc, batchId, now);
    if (refusal || !doc) return { entryId, ok: false, reason: refusal };
    if (doc.payoutBatchId === batchId) return figures(doc);
    return (await this.mark(doc, { payoutBatchId: batchId, payoutReservedUntil: reservedUntil }))
      ? figures(doc, doc.rev + 1)
      : undefined;
  }

  /**
   * Marked paid out (locked automatically): `entry.paidout` and the internal change in the same write. The
   * payout date is the step's instant, whose month was checked open and is held (0211).
   */
  private async commit(
    doc: (EntryDoc & PayableEntry) | null,
    entryId: string,
    batchId: string,
    now: Date,
    hold: PayoutHold | undefined,
  ) {
    if (!doc || doc.payoutBatchId !== batchId) return { entryId, ok: false, reason: 'is not reserved by this batch' };
    if (doc.isPaidOut) return figures(doc);
    if (hold && !hold.lasts()) return { entryId, ok: false, reason: OUT_OF_TIME };
    return this.change(
      doc,
      { isPaidOut: true, paidOutAt: now, editedAt: now, payoutReservedUntil: null },
      'entry.paidout',
      now,
    );
  }

  /** A reservation of a batch that did not happen is given back; nothing visible changed, so no event. */
  private async release(doc: (EntryDoc & PayableEntry) | null, entryId: string, batchId: string) {
    if (!doc || doc.payoutBatchId !== batchId) return { entryId, ok: true };
    if (doc.isPaidOut) return { entryId, ok: false, reason: 'is paid out by this batch; undo the batch instead' };
    return (await this.mark(doc, { payoutBatchId: null, payoutReservedUntil: null }))
      ? figures({ ...doc, payoutBatchId: null }, doc.rev + 1)
      : undefined;
  }

  /** The batch is deleted: the entry is ready for payout again, without the payout lock (`entry.updated`). */
  private async undo(
    doc: (EntryDoc & PayableEntry) | null,
    entryId: string,
    batchId: string,
    hold: PayoutHold | undefined,
  ) {
    if (!doc || doc.payoutBatchId !== batchId) return { entryId, ok: true };
    if (hold && !hold.lasts()) return { entryId, ok: false, reason: OUT_OF_TIME };
    const now = new Date();
    const $set = { isPaidOut: false, paidOutAt: null, payoutBatchId: null, payoutReservedUntil: null, editedAt: now };
    return this.change(doc, $set, 'entry.updated', now);
  }
}

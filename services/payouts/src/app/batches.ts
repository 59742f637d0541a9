import { randomUUID } from 'node:crypto';
import {
  AppError,
  conflict,
  invalidState,
  notFound,
  listPage,
  parseTenantId,
  tenantOf,
  throwIfInvalid,
  type CallerContext,
  type FieldErrors,
  type Logger,
  type ListRequest,
} from '@travel/platform';
import {
  batchEntry,
  duplicateIds,
  finalSince,
  payeeSnapshot,
  refusalToDelete,
  transferred,
  type BatchEntry,
  type BatchPayee,
  type PayoutMethod,
} from '../domain/batch';
import { entryIdListErrors } from '../domain/limits';
import type { BatchDoc, PayoutsRepositories } from '../infra/repositories';
import { BatchSaga, isPeriodClosed } from './batch-saga';
import type { EntryMark, EntryMarks, PayeeDirectory } from './ports';
import type { ReadyApp } from './ready';

/** How long a batch's reservations hold, and how long one call to entries may take (docs/decisions/0110). */
export interface BatchTimings {
  reservationMs: number;
  entriesTimeoutMs: number;
}

/** A completed batch of the caller's company, else 404 (another company's, rolled back, deleted). */
export async function completedBatch(
  repos: Pick<PayoutsRepositories, 'batches'>,
  caller: CallerContext,
  rawId: string,
): Promise<BatchDoc> {
  const b = await repos.batches.of(tenantOf(caller)).get(rawId.toLowerCase());
  if (!b || b.state !== 'completed') throw notFound('payout batch');
  return b;
}

/**
 * Payout batches without multi-document transactions (docs/decisions/0075): a create runs the saga
 * (`pending` written first → entries reserved → `committing` → entries marked paid out → `completed`; a
 * refusal → `releasing` → `rolledBack`), a delete its undo (`completed` → `undoing` → `deleted`); the saga's
 * steps and its recovery are `BatchSaga`, the bank file and the mark "sent to the bank" `BankFilesApp`.
 */
export class BatchesApp {
  private readonly saga: BatchSaga;

  constructor(
    private readonly repos: PayoutsRepositories,
    entries: EntryMarks,
    private readonly payees: PayeeDirectory,
    ready: ReadyApp,
    private readonly logger: Logger,
    private readonly timings: BatchTimings,
  ) {
    this.saga = new BatchSaga(repos, entries, ready, logger);
  }

  /** The batches of a batch's or a caller's company (a stored record names its tenant). */
  private batchesOf(tenantId: string) {
    return this.repos.batches.of(parseTenantId(tenantId));
  }

  /** Finishes or rolls back what a crash left half-way (the recovery job; see BatchSaga.recover). */
  recover(graceMs: number): Promise<number> {
    return this.saga.recover(graceMs);
  }

  async create(caller: CallerContext, input: { entryIds: string[]; payoutMethod: PayoutMethod }): Promise<BatchDoc> {
    throwIfInvalid(entryIdListErrors(input.entryIds)); // 1 to 500, before anything is written or reserved
    throwIfInvalid(duplicateIds(input.entryIds));
    const now = new Date();
    const batch: BatchDoc = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      state: 'pending',
      payoutMethod: input.payoutMethod,
      currencyCode: caller.baseCurrency,
      entryIds: input.entryIds.map((id) => id.toLowerCase()),
      entries: [],
      payees: [],
      reservedUntil: new Date(now.getTime() + this.timings.reservationMs),
      createdAt: now,
      createdByEmployeeId: caller.employeeId,
      completedAt: null,
      paymentFileDownloadedAt: null,
      sentToBank: null,
      deletedAt: null,
      stateAt: now,
      rev: 0,
    };
    await this.batchesOf(batch.tenantId).create(batch);

    let reserved: EntryMark[];
    try {
      reserved = await this.saga.step('reserve', batch);
    } catch (err) {
      // Today lies in a closed accounting period (0211): entries answered and reserved nothing.
      if (isPeriodClosed(err)) {
        await this.saga.rollBack(batch);
        throw err;
      }
      // No answer (a time-out, a lost connection): entries may still be reserving, so a release now could
      // come before it and leave the entries locked to a dead batch. The batch stays `pending`: the recovery
      // job rolls it back and releases again until the reservations' deadline (docs/decisions/0110).
      this.logger.warn({ batchId: batch._id, err: (err as Error).message }, 'payout reserve got no answer');
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The entries service did not answer in time; nothing was paid. The batch is rolled back by the service; its entries are ready again within a few minutes.',
      );
    }
    const errors: FieldErrors = {};
    reserved.forEach((m, i) => {
      if (!m.ok) errors[`entryIds[${i}]`] = [m.reason ?? 'is not ready for payout'];
    });
    if (Object.keys(errors).length) {
      await this.saga.rollBack(batch);
      throw new AppError('VALIDATION_FAILED', 'Some entries are not ready for payout; nothing was paid.', errors);
    }

    const entries = reserved.map((m) =>
      batchEntry({
        entryId: m.entryId,
        entryNumber: m.entryNumber!,
        employeeId: m.employeeId!,
        amountDue: m.amountDue!,
      }),
    );
    const payees = input.payoutMethod === 'BankTransfer' ? await this.bankDataOrRollBack(batch, entries) : [];
    // The commit must reach entries while the reservations hold (one more call to entries at most).
    if (Date.now() + this.timings.entriesTimeoutMs >= batch.reservedUntil!.getTime()) {
      await this.saga.rollBack(batch);
      throw conflict('The payout batch took too long and was rolled back; nothing was paid. Create it again.');
    }
    if (!(await this.saga.transition(batch, 'pending', 'committing', { entries, payees }))) {
      // The recovery job took it for a stale batch and rolled it back: nothing was paid.
      throw conflict('The payout batch took too long and was rolled back; nothing was paid. Create it again.');
    }
    try {
      return (await this.saga.complete({ ...batch, state: 'committing', entries }))!;
    } catch (err) {
      // The month was closed between the reserve and the commit (0211): the commit marked nothing.
      if (isPeriodClosed(err)) await this.saga.abandonCommit(batch);
      throw err;
    }
  }

  /**
   * The payees' bank data, kept with a BankTransfer batch (docs/decisions/0111). Employees not answering
   * is 503, and the reservations are given back (entries has answered, so nothing is still reserving).
   */
  private async bankDataOrRollBack(batch: BatchDoc, entries: BatchEntry[]): Promise<BatchPayee[]> {
    try {
      return await this.snapshot(batch.tenantId, entries);
    } catch (err) {
      await this.saga.rollBack(batch);
      throw err;
    }
  }

  /** The bank data of the employees `entries` pay, read from employees now. */
  private async snapshot(tenantId: string, entries: readonly BatchEntry[]): Promise<BatchPayee[]> {
    const ids = [...new Set(transferred(entries).map((e) => e.employeeId))];
    if (!ids.length) return [];
    return payeeSnapshot(entries, (await this.payees.payees(tenantId, ids)).payees);
  }

  /** A completed batch of the caller's company, else 404 (another company's, rolled back, deleted). */
  get(caller: CallerContext, rawId: string): Promise<BatchDoc> {
    return completedBatch(this.repos, caller, rawId);
  }

  list(caller: CallerContext, page: ListRequest) {
    return listPage<BatchDoc, BatchDoc>(
      this.repos.batches.of(tenantOf(caller)),
      { state: 'completed' },
      page,
      { createdAt: -1, _id: 1 },
      (d) => d,
    );
  }

  /** Undo (docs/decisions/0077): the entries are ready for payout again, without the payout lock. */
  async delete(caller: CallerContext, rawId: string): Promise<void> {
    const b = await this.get(caller, rawId);
    const refusal = refusalToDelete(b, new Date());
    if (refusal) throw invalidState(refusal);
    // Conditional on the batch not being final: a mark "sent to the bank" racing this undo loses or wins.
    const claimed = await this.batchesOf(b.tenantId).updateOne(
      { _id: b._id, state: 'completed', paymentFileDownloadedAt: null, sentToBank: null },
      { $set: { state: 'undoing', stateAt: new Date() }, $inc: { rev: 1 } },
    );
    if (claimed.matchedCount !== 1) {
      // Marked sent to the bank meanwhile, or another delete came first.
      const now = await this.batchesOf(b.tenantId).findOne({ _id: b._id }).lean();
      if (now?.state === 'completed' && finalSince(now)) throw invalidState(refusalToDelete(now, new Date())!);
      throw notFound('payout batch');
    }
    try {
      await this.saga.finishUndo({ ...b, state: 'undoing' });
    } catch (err) {
      // Paid out in a closed accounting period (0211): entries refused the undo whole and unmarked nothing,
      // so the batch is completed again, as it was.
      if (isPeriodClosed(err)) await this.saga.transition(b, 'undoing', 'completed');
      throw err;
    }
  }
}

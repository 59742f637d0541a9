import { randomUUID } from 'node:crypto';
import { checkBankText } from '@travel/money';
import {
  AppError,
  conflict,
  invalidState,
  isCalendarDate,
  notFound,
  listPage,
  parseTenantId,
  tenantOf,
  throwIfInvalid,
  type CallerContext,
  type FieldErrors,
  type Logger,
  type ListOptions,
  type ListRequest,
} from '@travel/platform';
import {
  batchEntry,
  duplicateIds,
  finalSince,
  payeeSnapshot,
  refusalToDelete,
  transferred,
  withoutBankAccount,
  type Batch,
  type BatchEntry,
  type BatchPayee,
  type BatchState,
  type PayoutMethod,
  type SentToBank,
} from '../domain/batch';
import { entryIdListErrors } from '../domain/limits';
import { buildPain001 } from '../domain/pain001';
import type { BatchDoc, PayoutsRepositories } from '../infra/repositories';
import type { BatchStep, EntryMark, EntryMarks, PayeeDirectory } from './ports';
import type { ReadyApp } from './ready';

/** entries refused a whole step: the batch's payout date lies in a closed accounting period (0211). */
const isPeriodClosed = (err: unknown): err is AppError => err instanceof AppError && err.code === 'PERIOD_CLOSED';

/** Test seams: where a simulated crash stops a create (the process "dies": nothing after it runs). */
export type CrashPoint = 'afterReserve' | 'midCommit';
export class SimulatedCrash extends Error {}

/** How long a batch's reservations hold, and how long one call to entries may take (docs/decisions/0110). */
export interface BatchTimings {
  reservationMs: number;
  entriesTimeoutMs: number;
}

export interface PaymentFileRequest {
  debtorIban: string;
  debtorBic?: string;
  executionDate?: string;
}

/**
 * Payout batches without multi-document transactions (docs/decisions/0075). The batch document is the
 * saga's log: `pending` (written first) → entries reserved → `committing` → entries marked paid out →
 * `completed`; a refusal goes `pending` → `releasing` → `rolledBack`; a delete `completed` → `undoing` →
 * `deleted`. Every state change is a conditional single-document write, and every entries step is
 * idempotent, so the recovery job can finish or roll back whatever a crash left half-way.
 */
export class BatchesApp {
  constructor(
    private readonly repos: PayoutsRepositories,
    private readonly entries: EntryMarks,
    private readonly payees: PayeeDirectory,
    private readonly ready: ReadyApp,
    private readonly logger: Logger,
    private readonly timings: BatchTimings,
    private readonly crashAt?: CrashPoint,
  ) {}

  /** The batches of a batch's or a caller's company (a stored record names its tenant). */
  private batchesOf(tenantId: string) {
    return this.repos.batches.of(parseTenantId(tenantId));
  }

  /** Moves a batch from one state to the next if nobody else did (false otherwise). */
  private async transition(
    b: Pick<Batch, '_id' | 'tenantId'>,
    from: BatchState,
    to: BatchState,
    set: Record<string, unknown> = {},
  ): Promise<boolean> {
    const res = await this.batchesOf(b.tenantId).updateOne(
      { _id: b._id, state: from },
      { $set: { ...set, state: to, stateAt: new Date() }, $inc: { rev: 1 } },
    );
    return res.matchedCount === 1;
  }

  private step(step: BatchStep, b: Pick<Batch, '_id' | 'tenantId' | 'entryIds' | 'reservedUntil'>, ids = b.entryIds) {
    return this.entries.run(step, b.tenantId, b._id, ids, step === 'reserve' ? (b.reservedUntil ?? null) : null);
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
      reserved = await this.step('reserve', batch);
    } catch (err) {
      // Today lies in a closed accounting period (0211): entries answered and reserved nothing.
      if (isPeriodClosed(err)) {
        await this.rollBack(batch);
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
      await this.rollBack(batch);
      throw new AppError('VALIDATION_FAILED', 'Some entries are not ready for payout; nothing was paid.', errors);
    }
    if (this.crashAt === 'afterReserve') throw new SimulatedCrash('crash after reserve');

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
      await this.rollBack(batch);
      throw conflict('The payout batch took too long and was rolled back; nothing was paid. Create it again.');
    }
    if (!(await this.transition(batch, 'pending', 'committing', { entries, payees }))) {
      // The recovery job took it for a stale batch and rolled it back: nothing was paid.
      throw conflict('The payout batch took too long and was rolled back; nothing was paid. Create it again.');
    }
    if (this.crashAt === 'midCommit') {
      await this.step('commit', batch, batch.entryIds.slice(0, 1));
      throw new SimulatedCrash('crash in the middle of the commit');
    }
    try {
      return (await this.complete({ ...batch, state: 'committing', entries }))!;
    } catch (err) {
      // The month was closed between the reserve and the commit (0211): the commit marked nothing.
      if (isPeriodClosed(err)) await this.abandonCommit(batch);
      throw err;
    }
  }

  /**
   * A first commit refused whole because its month is closed (docs/decisions/0211): nothing of the batch is
   * paid, so it is rolled back like a refused reserve (`committing` → `releasing` → `rolledBack`).
   */
  private async abandonCommit(batch: BatchDoc): Promise<void> {
    if (await this.transition(batch, 'committing', 'releasing')) await this.rollBack({ ...batch, state: 'releasing' });
  }

  /**
   * The payees' bank data, kept with a BankTransfer batch (docs/decisions/0111). Employees not answering
   * is 503, and the reservations are given back (entries has answered, so nothing is still reserving).
   */
  private async bankDataOrRollBack(batch: BatchDoc, entries: BatchEntry[]): Promise<BatchPayee[]> {
    try {
      return await this.snapshot(batch.tenantId, entries);
    } catch (err) {
      await this.rollBack(batch);
      throw err;
    }
  }

  /** The bank data of the employees `entries` pay, read from employees now. */
  private async snapshot(tenantId: string, entries: readonly BatchEntry[]): Promise<BatchPayee[]> {
    const ids = [...new Set(transferred(entries).map((e) => e.employeeId))];
    if (!ids.length) return [];
    return payeeSnapshot(entries, (await this.payees.payees(tenantId, ids)).payees);
  }

  /** `committing` → every entry paid out → `completed` (with payout.batch.created). Idempotent. */
  private async complete(batch: BatchDoc): Promise<BatchDoc | undefined> {
    const marks = await this.step('commit', batch);
    const failed = marks.filter((m) => !m.ok);
    if (failed.length) {
      // Cannot happen while the entries stay reserved; the recovery job tries again, and the log says why.
      this.logger.error({ batchId: batch._id, failed: failed.map((m) => m.entryId) }, 'payout commit refused');
      throw new Error('the payout batch could not be completed; it will be retried');
    }
    const now = new Date();
    const done = await this.transition(batch, 'committing', 'completed', { completedAt: now });
    await this.ready.applyMarks(batch.tenantId, marks, now);
    return done ? { ...batch, state: 'completed', completedAt: now } : undefined;
  }

  /** `pending` → `releasing` → entries given back → `rolledBack`. Idempotent. */
  private async rollBack(batch: Pick<Batch, '_id' | 'tenantId' | 'entryIds' | 'state'>): Promise<void> {
    if (batch.state === 'pending' && !(await this.transition(batch, 'pending', 'releasing'))) {
      const now = await this.batchesOf(batch.tenantId).findOne({ _id: batch._id }).lean();
      if (now?.state !== 'releasing') return; // another worker moved it on (committing / rolled back)
    }
    await this.step('release', batch);
    await this.transition(batch, 'releasing', 'rolledBack');
  }

  /**
   * A reserve that got no answer may reach entries after its batch was rolled back: its rolled-back
   * batches are released again on every pass until their reservations' deadline (docs/decisions/0110).
   */
  private async releaseLateReservations(): Promise<number> {
    let released = 0;
    for (const b of await this.repos.rolledBackHoldingAfter(new Date())) {
      try {
        const marks = await this.step('release', b);
        released += marks.filter((m) => m.rev !== undefined).length;
      } catch (err) {
        this.logger.warn({ batchId: b._id, err: (err as Error).message }, 'payout late release failed');
      }
    }
    return released;
  }

  /** `undoing` → entries ready again → `deleted`. Idempotent. */
  private async finishUndo(batch: BatchDoc): Promise<void> {
    const marks = await this.step('undo', batch);
    const failed = marks.filter((m) => !m.ok);
    if (failed.length) {
      // An undo that ran past its hold on the period (0211) left entries paid: the recovery job repeats it.
      this.logger.error({ batchId: batch._id, failed: failed.map((m) => m.entryId) }, 'payout undo refused');
      throw new Error('the payout batch could not be undone yet; it will be retried');
    }
    const now = new Date();
    // The bank data leaves with the batch (docs/decisions/0111).
    await this.transition(batch, 'undoing', 'deleted', { deletedAt: now, payees: [] });
    await this.ready.applyMarks(batch.tenantId, marks, now);
  }

  /**
   * Finishes or rolls back what a crash (or a lost connection) left half-way, for batches whose state is
   * older than `graceMs` (a request may still be working on a younger one). Returns how many it handled.
   */
  async recover(graceMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - graceMs);
    let handled = 0;
    for (const state of ['pending', 'releasing', 'committing', 'undoing'] as const) {
      const stale = (await this.repos.batchesIn(state)).filter((b) => b.stateAt <= cutoff);
      for (const b of stale) {
        try {
          if (state === 'pending' || state === 'releasing') await this.rollBack(b);
          else if (state === 'committing') await this.complete(b);
          else await this.finishUndo(b);
          handled++;
          this.logger.info({ batchId: b._id, state }, 'payout batch recovered');
        } catch (err) {
          this.logger.warn({ batchId: b._id, state, err: (err as Error).message }, 'payout batch recovery failed');
        }
      }
    }
    const late = await this.releaseLateReservations();
    if (late) this.logger.info({ entries: late }, 'payout reservations of rolled-back batches released');
    return handled + late;
  }

  /** A completed batch of the caller's company, else 404 (another company's, rolled back, deleted). */
  async get(caller: CallerContext, rawId: string): Promise<BatchDoc> {
    const b = await this.repos.batches.of(tenantOf(caller)).get(rawId.toLowerCase());
    if (!b || b.state !== 'completed') throw notFound('payout batch');
    return b;
  }

  list(caller: CallerContext, page: ListRequest, options?: ListOptions) {
    return listPage<BatchDoc, BatchDoc>(
      this.repos.batches.of(tenantOf(caller)),
      { state: 'completed' },
      page,
      { createdAt: -1, _id: 1 },
      (d) => d,
      options,
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
      await this.finishUndo({ ...b, state: 'undoing' });
    } catch (err) {
      // Paid out in a closed accounting period (0211): entries refused the undo whole and unmarked nothing,
      // so the batch is completed again, as it was.
      if (isPeriodClosed(err)) await this.transition(b, 'undoing', 'completed');
      throw err;
    }
  }

  /**
   * The payees a BankTransfer batch's file pays, with a valid IBAN each, or 409: not a BankTransfer batch,
   * nothing transferred, a payee without bank account. The file and the mark "sent to the bank" both ask here.
   */
  private async payeesOfFile(
    b: BatchDoc,
    withCompany = true,
  ): Promise<{ company?: { name: string }; payees: BatchPayee[] }> {
    if (b.payoutMethod !== 'BankTransfer')
      throw invalidState(`A ${b.payoutMethod} batch has no bank payment file; only BankTransfer batches do.`);
    const paid = transferred(b.entries);
    if (!paid.length) throw invalidState('Nothing in this batch is paid to an employee; there is no payment file.');

    // The bank data kept when the batch was made (docs/decisions/0111), never the employee record of today;
    // a batch made before bank data was kept takes it from the records now, as it did then.
    const kept = b.payees?.length ? b.payees : undefined;
    const ids = kept ? [] : [...new Set(paid.map((e) => e.employeeId))];
    // The payer's name comes from employees too; a mark with kept bank data needs nothing from there.
    const read = kept && !withCompany ? undefined : await this.payees.payees(b.tenantId, ids);
    const payees = kept ?? payeeSnapshot(b.entries, read?.payees ?? []);
    const missing = withoutBankAccount(b.entries, payees);
    if (missing.length) {
      const errors: FieldErrors = {};
      for (const i of missing)
        errors[`entries[${i}].employeeId`] = [
          'had no valid bank account (IBAN) on record when the batch was made; add it to the employee, undo the batch and make it again',
        ];
      throw new AppError('INVALID_STATE', 'Some employees of this batch have no bank account on record.', errors);
    }
    return { company: read?.company, payees };
  }

  /**
   * The pain.001.001.09 file of a BankTransfer batch. A read: it changes nothing, the batch stays as it was
   * (undoable until it is marked sent to the bank, docs/decisions/0191).
   */
  async paymentFile(
    caller: CallerContext,
    rawId: string,
    req: PaymentFileRequest,
  ): Promise<{ xml: string; batch: BatchDoc }> {
    // The company's account and bank get the rules an employee's bank data gets (@travel/money, 0119).
    const errors: FieldErrors = {};
    const iban = checkBankText('iban', req.debtorIban);
    if (!iban.ok) errors.debtorIban = [iban.message];
    const bic = req.debtorBic === undefined ? undefined : checkBankText('bic', req.debtorBic);
    if (bic && !bic.ok) errors.debtorBic = [bic.message];
    const executionDate = req.executionDate ?? new Date().toISOString().slice(0, 10);
    if (req.executionDate && !isCalendarDate(req.executionDate))
      errors.executionDate = ['must be a calendar date (yyyy-MM-dd)'];
    throwIfInvalid(errors);
    const b = await this.get(caller, rawId);
    const { company, payees } = await this.payeesOfFile(b);
    const byId = new Map(payees.map((p) => [p.employeeId, p]));

    const xml = buildPain001({
      messageId: b._id,
      createdAt: new Date(),
      executionDate,
      currency: b.currencyCode,
      debtorName: company!.name,
      debtorIban: iban.ok ? iban.value : '',
      debtorBic: bic?.ok ? bic.value : null,
      transfers: transferred(b.entries).map((e) => {
        const p = byId.get(e.employeeId)!;
        return {
          endToEndId: e.entryNumber || e.entryId,
          amount: e.amountDue,
          creditorName: p.name,
          creditorIban: p.iban!,
          creditorBic: p.bic,
          remittance: `Travel expenses ${e.entryNumber || e.entryId}`,
        };
      }),
    });
    return { xml, batch: b };
  }

  /**
   * Marks a BankTransfer batch sent to the bank (docs/decisions/0191): final from then on (no undo), with
   * who and when kept on the batch. A batch already marked is answered as it is (the first mark stays).
   */
  async markSentToBank(caller: CallerContext, rawId: string): Promise<BatchDoc> {
    const b = await this.get(caller, rawId);
    if (b.sentToBank) return b;
    await this.payeesOfFile(b, false); // only a batch that has a payment file can have been sent
    const sentToBank: SentToBank = {
      at: new Date(),
      employeeId: caller.employeeId,
      keyIssuedByEmployeeId: caller.keyIssuedByEmployeeId ?? null,
    };
    // Conditional on the batch still being there: an undo racing this mark either came first (404) or fails.
    const res = await this.batchesOf(b.tenantId).updateOne(
      { _id: b._id, state: 'completed', sentToBank: null },
      { $set: { sentToBank }, $inc: { rev: 1 } },
    );
    if (res.matchedCount === 1) {
      this.logger.info(
        { batchId: b._id, employeeId: sentToBank.employeeId, keyIssuedByEmployeeId: sentToBank.keyIssuedByEmployeeId },
        'payout batch marked sent to the bank',
      );
      return { ...b, sentToBank, rev: b.rev + 1 };
    }
    // Another mark came first (answered as it is), or an undo did (404).
    return this.get(caller, rawId);
  }
}

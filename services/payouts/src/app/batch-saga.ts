// The payout batch saga (docs/decisions/0075): its state changes, the entries steps it takes, and the
// recovery that finishes or rolls back what a crash or a lost answer left half-way. The batch document is
// the saga's log; every state change is a conditional single-document write and every entries step is
// idempotent, so any replica may take any step again.
import { AppError, parseTenantId, type Logger } from '@travel/platform';
import type { Batch, BatchState } from '../domain/batch';
import type { BatchDoc, PayoutsRepositories } from '../infra/repositories';
import type { BatchStep, EntryMarks } from './ports';
import type { ReadyApp } from './ready';

/** entries refused a whole step: the batch's payout date lies in a closed accounting period (0211). */
export const isPeriodClosed = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === 'PERIOD_CLOSED';

export class BatchSaga {
  constructor(
    private readonly repos: PayoutsRepositories,
    private readonly entries: EntryMarks,
    private readonly ready: ReadyApp,
    private readonly logger: Logger,
  ) {}

  /** The batches of a batch's company (a stored record names its tenant). */
  private batchesOf(tenantId: string) {
    return this.repos.batches.of(parseTenantId(tenantId));
  }

  /** Moves a batch from one state to the next if nobody else did (false otherwise). */
  async transition(
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

  step(step: BatchStep, b: Pick<Batch, '_id' | 'tenantId' | 'entryIds' | 'reservedUntil'>, ids = b.entryIds) {
    return this.entries.run(step, b.tenantId, b._id, ids, step === 'reserve' ? (b.reservedUntil ?? null) : null);
  }

  /**
   * A first commit refused whole because its month is closed (docs/decisions/0211): nothing of the batch is
   * paid, so it is rolled back like a refused reserve (`committing` → `releasing` → `rolledBack`).
   */
  async abandonCommit(batch: BatchDoc): Promise<void> {
    if (await this.transition(batch, 'committing', 'releasing')) await this.rollBack({ ...batch, state: 'releasing' });
  }

  /** `committing` → every entry paid out → `completed` (with payout.batch.created). Idempotent. */
  async complete(batch: BatchDoc): Promise<BatchDoc | undefined> {
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
  async rollBack(batch: Pick<Batch, '_id' | 'tenantId' | 'entryIds' | 'state'>): Promise<void> {
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
  async finishUndo(batch: BatchDoc): Promise<void> {
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
}

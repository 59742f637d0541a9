// The companies' accounting periods (docs/decisions/0207, 0208): one document per company and month that was
// ever closed, with its state, its audit trail and, while closed, the exports frozen at the close. A month
// without a document is open. Every read goes to the store (no cache in a replica's memory): a close is
// seen by every replica's next write.
import { Schema, type Connection, type Model } from 'mongoose';
import { RevisionConflict, TenantModel, tenantScoped, type CollectionVersions, type TenantId } from '@travel/platform';
import { liveHolds, type PayoutHolds, type PeriodRecord, type PeriodState } from '../domain/accounting-period';
import { FrozenExportsStore, type FrozenExports, type FrozenRef } from './frozen-exports-store';

export type { FrozenExports, FrozenJournal, FrozenRef } from './frozen-exports-store';

export interface AccountingPeriodDoc {
  _id: string;
  tenantId: string;
  /** YYYY-MM */
  period: string;
  state: PeriodState;
  history: PeriodRecord[];
  /** Set while closed, naming the exports frozen at the close; cleared by a reopen (the next close freezes again). */
  frozen: FrozenRef | null;
  /**
   * The payout steps (commit, undo) marking or unmarking entries paid out in the month right now, by batch,
   * with until when each holds (docs/decisions/0211). A month only held, never closed, has a document too.
   */
  payoutHolds?: PayoutHolds;
  editedAt: Date;
  rev: number;
}

export const ACCOUNTING_PERIODS_COLLECTION = 'accounting_periods';

function periodModel(conn: Connection): Model<AccountingPeriodDoc> {
  if (conn.models.AccountingPeriod) return conn.models.AccountingPeriod as Model<AccountingPeriodDoc>;
  const schema = new Schema<AccountingPeriodDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      period: { type: String, required: true },
      state: { type: String, required: true },
      history: { type: Schema.Types.Mixed, default: [] },
      frozen: { type: Schema.Types.Mixed, default: null },
      payoutHolds: { type: Schema.Types.Mixed, default: {} },
      editedAt: { type: Date, required: true },
      rev: { type: Number, required: true },
    },
    { collection: ACCOUNTING_PERIODS_COLLECTION, versionKey: false, minimize: false },
  );
  // Every query names the tenant and asks by period (one, some, or all of the tenant's).
  schema.index({ tenantId: 1, period: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<AccountingPeriodDoc>('AccountingPeriod', schema);
}

/** A period's next state, written at the revision read. */
export interface PeriodChange {
  state: PeriodState;
  record: PeriodRecord;
  frozen: FrozenExports | null;
}

const idOf = (tenant: TenantId, period: string): string => `${tenant}:${period}`;

export class AccountingPeriodStore {
  private readonly periods: TenantModel<AccountingPeriodDoc>;
  private readonly exports: FrozenExportsStore;

  constructor(conn: Connection, versions?: CollectionVersions) {
    this.periods = new TenantModel(periodModel(conn), versions);
    this.exports = new FrozenExportsStore(conn);
  }

  /** The payroll sheets frozen at the close of a closed period. */
  frozenPayroll(tenant: TenantId, doc: AccountingPeriodDoc & { frozen: FrozenRef }): Promise<FrozenExports['payroll']> {
    return this.exports.payroll(tenant, doc.frozen);
  }

  /** The journal rows frozen at the close of a closed period (none when it was frozen as a refusal). */
  frozenJournalRows(tenant: TenantId, doc: AccountingPeriodDoc & { frozen: FrozenRef }) {
    return this.exports.journalRows(tenant, doc.frozen);
  }

  get(tenant: TenantId, period: string): Promise<AccountingPeriodDoc | null> {
    return this.periods.of(tenant).get(idOf(tenant, period));
  }

  /** The company's periods that were ever closed, newest first (a month a payout only held is not one). */
  async list(tenant: TenantId): Promise<AccountingPeriodDoc[]> {
    const docs = await this.periods.of(tenant).find({}).sort({ period: -1 }).lean<AccountingPeriodDoc[]>().exec();
    return docs.filter((d) => d.history.length > 0);
  }

  /** Which of these periods are closed now (read from the store on every call). */
  async closedAmong(tenant: TenantId, periods: readonly string[]): Promise<string[]> {
    if (periods.length === 0) return [];
    const docs = await this.periods
      .of(tenant)
      .find({ period: { $in: [...periods] }, state: 'Closed' }, { period: 1 })
      .lean<Pick<AccountingPeriodDoc, 'period'>[]>()
      .exec();
    return docs.map((d) => d.period).sort();
  }

  /** The closed periods from `first` to `last` (YYYY-MM, inclusive) with their frozen exports. */
  closedBetween(tenant: TenantId, first: string, last: string): Promise<AccountingPeriodDoc[]> {
    return this.periods
      .of(tenant)
      .find({ period: { $gte: first, $lte: last }, state: 'Closed' })
      .sort({ period: 1 })
      .lean<AccountingPeriodDoc[]>()
      .exec();
  }

  /**
   * Holds an open month for a payout step of `holder` (its batch) until `until` (docs/decisions/0211): a
   * write at the revision read, so a close that read the month before (and is freezing its exports) loses
   * its race and decides again, seeing the hold. False when the month is closed: nothing is held.
   */
  async holdForPayout(tenant: TenantId, period: string, holder: string, until: Date): Promise<boolean> {
    const current = await this.get(tenant, period);
    if (current?.state === 'Closed') return false;
    const scope = this.periods.of(tenant);
    if (!current) {
      try {
        await scope.create({
          _id: idOf(tenant, period),
          period,
          state: 'Open',
          history: [],
          frozen: null,
          payoutHolds: { [holder]: until },
          editedAt: new Date(),
          rev: 1,
        });
      } catch (err) {
        if ((err as { code?: number }).code === 11000) throw new RevisionConflict();
        throw err;
      }
      return true;
    }
    // Holds that lapsed (a step that stopped half-way) are dropped with the write.
    const now = new Date();
    const kept = Object.fromEntries(
      liveHolds(current.payoutHolds, now).map((h) => [h, current.payoutHolds![h]] as const),
    );
    await scope.commit(current, { $set: { payoutHolds: { ...kept, [holder]: until } } });
    return true;
  }

  /** Gives a hold back; the step is done (a lapsed hold counts as given back anyway). */
  async releasePayoutHold(tenant: TenantId, period: string, holder: string): Promise<void> {
    await this.periods
      .of(tenant)
      .updateOne({ _id: idOf(tenant, period) }, { $unset: { [`payoutHolds.${holder}`]: '' } });
  }

  /**
   * Writes the change at the revision read (`current`, or none: the first close of the month inserts it).
   * Another write first: RevisionConflict, and the caller decides again on what is stored now.
   */
  async write(tenant: TenantId, period: string, current: AccountingPeriodDoc | null, change: PeriodChange) {
    // The rows first, then the reference to them: a reader never meets a reference without its rows.
    const frozen = change.frozen && (await this.exports.put(tenant, change.frozen));
    try {
      await this.writeState(tenant, period, current, { ...change, frozen });
    } catch (err) {
      if (frozen) await this.exports.drop(tenant, frozen.id);
      throw err;
    }
    // What the period named before is named no more (a reopen, or a close after a lapsed hold's write).
    if (current?.frozen && current.frozen.id !== frozen?.id) await this.exports.drop(tenant, current.frozen.id);
  }

  private async writeState(
    tenant: TenantId,
    period: string,
    current: AccountingPeriodDoc | null,
    change: Omit<PeriodChange, 'frozen'> & { frozen: FrozenRef | null },
  ) {
    const scope = this.periods.of(tenant);
    const editedAt = change.record.at;
    if (!current) {
      try {
        await scope.create({
          _id: idOf(tenant, period),
          period,
          state: change.state,
          history: [change.record],
          frozen: change.frozen,
          editedAt,
          rev: 1,
        });
      } catch (err) {
        // Another replica inserted the month first (duplicate key): decide again on its state.
        if ((err as { code?: number }).code === 11000) throw new RevisionConflict();
        throw err;
      }
      return;
    }
    await scope.commit(current, {
      $set: { state: change.state, frozen: change.frozen, editedAt, history: [...current.history, change.record] },
    });
  }
}

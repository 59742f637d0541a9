// The companies' accounting periods (docs/decisions/0207, 0208): one document per company and month that was
// ever closed, with its state, its audit trail and, while closed, the exports frozen at the close. A month
// without a document is open. Every read goes to the store (no cache in a replica's memory): a close is
// seen by every replica's next write.
import { Schema, type Connection, type Model } from 'mongoose';
import { RevisionConflict, TenantModel, tenantScoped, type CollectionVersions, type TenantId } from '@travel/platform';
import type { PeriodRecord, PeriodState } from '../domain/accounting-period';
import type { Sheet } from './spreadsheet';

/** The journal of a closed month as it was at the close: its lines, or the refusal it answered then. */
export interface FrozenJournal {
  /** The sheet's rows, each with the payout date of its entry (`payoutDate`, not a column). */
  sheet: Sheet | null;
  /** The 409 `CONFLICT` detail the month's journal answered at the close (an account without a number). */
  refusal: string | null;
}

/** The month's exports as they were at the close, served as they are while it stays closed. */
export interface FrozenExports {
  at: Date;
  payroll: { summary: Sheet; entries: Sheet };
  journal: FrozenJournal;
}

export interface AccountingPeriodDoc {
  _id: string;
  tenantId: string;
  /** YYYY-MM */
  period: string;
  state: PeriodState;
  history: PeriodRecord[];
  /** Set while closed; cleared by a reopen (the next close freezes again). */
  frozen: FrozenExports | null;
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

  constructor(conn: Connection, versions?: CollectionVersions) {
    this.periods = new TenantModel(periodModel(conn), versions);
  }

  get(tenant: TenantId, period: string): Promise<AccountingPeriodDoc | null> {
    return this.periods.of(tenant).get(idOf(tenant, period));
  }

  /** The company's periods that were ever closed, newest first. */
  list(tenant: TenantId): Promise<AccountingPeriodDoc[]> {
    return this.periods.of(tenant).find({}).sort({ period: -1 }).lean<AccountingPeriodDoc[]>().exec();
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
   * Writes the change at the revision read (`current`, or none: the first close of the month inserts it).
   * Another write first: RevisionConflict, and the caller decides again on what is stored now.
   */
  async write(tenant: TenantId, period: string, current: AccountingPeriodDoc | null, change: PeriodChange) {
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

// The companies' journal account numbers (docs/decisions/0144): one document per tenant, its id the tenant
// id, replaced whole (last write wins: one value, nothing to merge). A company that never wrote one has
// none: the market's verified defaults apply.
import { Schema, type Connection, type Model } from 'mongoose';
import { tenantScoped, type TenantId } from '@travel/platform';
import type { JournalAccounts } from '../domain/journal';

export interface JournalAccountsDoc {
  _id: string;
  tenantId: string;
  accounts: Partial<JournalAccounts>;
  editedAt: Date;
  editedByEmployeeId: string;
}

export const JOURNAL_ACCOUNTS_COLLECTION = 'journal_accounts';

function accountsModel(conn: Connection): Model<JournalAccountsDoc> {
  if (conn.models.JournalAccounts) return conn.models.JournalAccounts as Model<JournalAccountsDoc>;
  const schema = new Schema<JournalAccountsDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      accounts: { type: Schema.Types.Mixed, default: {} },
      editedAt: { type: Date, required: true },
      editedByEmployeeId: { type: String, required: true },
    },
    { collection: JOURNAL_ACCOUNTS_COLLECTION, versionKey: false, minimize: false },
  );
  schema.index({ tenantId: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<JournalAccountsDoc>('JournalAccounts', schema);
}

export class JournalAccountsStore {
  private readonly model: Model<JournalAccountsDoc>;

  constructor(conn: Connection) {
    this.model = accountsModel(conn);
  }

  get(tenantId: TenantId): Promise<JournalAccountsDoc | null> {
    return this.model.findOne({ _id: tenantId, tenantId }).lean<JournalAccountsDoc>();
  }

  async put(tenantId: TenantId, accounts: Partial<JournalAccounts>, employeeId: string): Promise<JournalAccountsDoc> {
    const doc = await this.model
      .findOneAndUpdate(
        { _id: tenantId, tenantId },
        { $set: { tenantId, accounts, editedAt: new Date(), editedByEmployeeId: employeeId } },
        { upsert: true, new: true },
      )
      .lean<JournalAccountsDoc>();
    return doc!;
  }
}

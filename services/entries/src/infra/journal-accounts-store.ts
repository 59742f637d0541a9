// The companies' journal account numbers (docs/decisions/0144): one document per tenant, its id the tenant
// id, replaced whole (last write wins: one value, nothing to merge). A company that never wrote one has
// none: the market's verified defaults apply. A change raises the internal `journal-accounts.updated`
// event in the same atomic update (single-document outbox), as reference-fx's company settings do.
import { isDeepStrictEqual } from 'node:util';
import { Schema, type Connection, type Model } from 'mongoose';
import {
  outboxSchemaFields,
  replaceSetting,
  raiseEvent,
  tenantScoped,
  type CollectionVersions,
  type OutboxFields,
  type TenantId,
} from '@travel/platform';
import type { JournalAccountKey } from '../domain/journal';
import { SERVICE } from '../service-name';

/** What the company set: an account number per key it chose (the others use the market's default). */
export type OwnAccounts = Partial<Record<JournalAccountKey, string>>;

/** Routing key `entries.journal-accounts.updated`; data: the company's accounts as stored. */
export const JOURNAL_ACCOUNTS_UPDATED = 'journal-accounts.updated';

export interface JournalAccountsDoc extends OutboxFields {
  _id: string;
  tenantId: string;
  accounts: OwnAccounts;
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
      ...outboxSchemaFields,
    },
    { collection: JOURNAL_ACCOUNTS_COLLECTION, versionKey: false, minimize: false },
  );
  schema.index({ tenantId: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<JournalAccountsDoc>('JournalAccounts', schema);
}

export class JournalAccountsStore {
  private readonly model: Model<JournalAccountsDoc>;

  constructor(
    conn: Connection,
    /** With the versions, a write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
    private readonly versions?: CollectionVersions,
  ) {
    this.model = accountsModel(conn);
  }

  get(tenantId: TenantId): Promise<JournalAccountsDoc | null> {
    return this.model.findOne({ _id: tenantId, tenantId }).lean<JournalAccountsDoc>();
  }

  /** Replaces the company's accounts; an unchanged write is a no-op (no event, same `editedAt`). */
  async put(tenantId: TenantId, accounts: OwnAccounts, employeeId: string): Promise<JournalAccountsDoc> {
    const stored = await this.get(tenantId);
    if (stored && isDeepStrictEqual({ ...stored.accounts }, { ...accounts })) return stored;
    const event = raiseEvent(SERVICE, JOURNAL_ACCOUNTS_UPDATED, tenantId, { accounts });
    const write = { id: tenantId, tenantId, fields: { accounts }, employeeId, event };
    return replaceSetting(this.model, write, this.versions);
  }
}

// The companies' expense policies (docs/decisions/0203): one document per tenant, its id the tenant id,
// replaced whole (last write wins: one value, nothing to merge). A company that never wrote one has none:
// no rule, no finding. No event: only entries reads it, at an entry's next write (never a mass rewrite).
import { Schema, type Connection, type Model } from 'mongoose';
import { replaceSetting, tenantScoped, type CollectionVersions, type TenantId } from '@travel/platform';
import type { ExpensePolicy, ExpensePolicyVersion } from '../domain/expense-policy';

export interface ExpensePolicyDoc {
  _id: string;
  tenantId: string;
  versions: ExpensePolicyVersion[];
  editedAt: Date;
  editedByEmployeeId: string;
}

export const EXPENSE_POLICIES_COLLECTION = 'expense_policies';

const nullableString = { type: String, default: null };

function policyModel(conn: Connection): Model<ExpensePolicyDoc> {
  if (conn.models.ExpensePolicy) return conn.models.ExpensePolicy as Model<ExpensePolicyDoc>;
  const rule = new Schema(
    {
      name: String,
      kind: String,
      departmentId: nullableString,
      costCenterId: nullableString,
      maxPerItem: nullableString,
      maxPerDay: nullableString,
      maxPerTrip: nullableString,
      receiptRequiredAbove: nullableString,
      missingReceiptDeclarationAllowed: { type: Boolean, default: false },
      onBreach: String,
    },
    { _id: false },
  );
  const version = new Schema(
    { effectiveFrom: { type: String, required: true }, rules: { type: [rule], default: [] } },
    { _id: false },
  );
  const schema = new Schema<ExpensePolicyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      versions: { type: [version], default: [] },
      editedAt: { type: Date, required: true },
      editedByEmployeeId: { type: String, required: true },
    },
    { collection: EXPENSE_POLICIES_COLLECTION, versionKey: false, minimize: false },
  );
  schema.index({ tenantId: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<ExpensePolicyDoc>('ExpensePolicy', schema);
}

export class ExpensePolicyStore {
  private readonly model: Model<ExpensePolicyDoc>;

  constructor(
    conn: Connection,
    /** A write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
    private readonly versions?: CollectionVersions,
  ) {
    this.model = policyModel(conn);
  }

  get(tenantId: TenantId): Promise<ExpensePolicyDoc | null> {
    return this.model.findOne({ _id: tenantId, tenantId }).lean<ExpensePolicyDoc>();
  }

  put(tenantId: TenantId, policy: ExpensePolicy, employeeId: string): Promise<ExpensePolicyDoc> {
    return replaceSetting(
      this.model,
      { id: tenantId, tenantId, fields: { versions: policy.versions }, employeeId },
      this.versions,
    );
  }
}

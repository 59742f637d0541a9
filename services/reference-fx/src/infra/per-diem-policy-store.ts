// The companies' per-diem policies: one document per tenant, its id the tenant id; every read and write
// filters by that `_id` and the tenant (the `tenantScoped` plugin refuses anything else, docs/decisions/
// 0081). A company that never wrote a policy has no document: the statutory amounts apply.
// A write raises the internal `per-diem-policy.updated` event in the same atomic update (single-document
// outbox), as the allow-lists do (docs/decisions/0128).
import { Schema, type Connection, type Model } from 'mongoose';
import {
  type CollectionVersions,
  outboxSchemaFields,
  raiseEvent,
  replaceSetting,
  tenantScoped,
  type OutboxFields,
  type TenantId,
} from '@travel/platform';
import type { PerDiemPolicy, PerDiemPolicyVersion, PolicySector } from '@travel/contracts';

/** Routing key `reference-fx.per-diem-policy.updated`; data: the policy as stored. */
export const PER_DIEM_POLICY_UPDATED = 'per-diem-policy.updated';

export interface PerDiemPolicyDoc extends OutboxFields {
  _id: string;
  tenantId: string;
  sector: PolicySector;
  versions: PerDiemPolicyVersion[];
  editedAt: Date;
  editedByEmployeeId: string;
}

export const PER_DIEM_POLICIES_COLLECTION = 'per_diem_policies';

function policyModel(conn: Connection): Model<PerDiemPolicyDoc> {
  if (conn.models.PerDiemPolicy) return conn.models.PerDiemPolicy as Model<PerDiemPolicyDoc>;
  const version = new Schema<PerDiemPolicyVersion>(
    {
      effectiveFrom: { type: String, required: true },
      domesticBands: { type: [{ _id: false, band: String, amount: String }], default: [] },
      foreignBaseRatePercent: { type: String, default: null },
      // The company's per-country rates (docs/decisions/0188); absent on versions stored before them.
      foreignRates: {
        type: [
          {
            _id: false,
            countryCode: String,
            amount: String,
            currencyCode: String,
            confirmedBy: String,
            confirmedAt: String,
          },
        ],
        default: [],
      },
    },
    { _id: false },
  );
  const schema = new Schema<PerDiemPolicyDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      sector: { type: String, required: true, enum: ['Private', 'Public'] },
      versions: { type: [version], default: [] },
      editedAt: { type: Date, required: true },
      editedByEmployeeId: { type: String, required: true },
      ...outboxSchemaFields,
    },
    { collection: PER_DIEM_POLICIES_COLLECTION, versionKey: false },
  );
  schema.index({ tenantId: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<PerDiemPolicyDoc>('PerDiemPolicy', schema);
}

export class PerDiemPolicyStore {
  private readonly model: Model<PerDiemPolicyDoc>;

  constructor(
    conn: Connection,
    /** With the versions, a write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
    private readonly versions?: CollectionVersions,
  ) {
    this.model = policyModel(conn);
  }

  async get(tenantId: TenantId): Promise<PerDiemPolicyDoc | null> {
    return this.model.findOne({ _id: tenantId, tenantId }).lean<PerDiemPolicyDoc>();
  }

  /** Replaces the policy (last write wins: it is one value, so there is nothing to merge). */
  async put(tenantId: TenantId, policy: PerDiemPolicy, employeeId: string): Promise<PerDiemPolicyDoc> {
    const fields = { sector: policy.sector, versions: policy.versions };
    const event = raiseEvent('reference-fx', PER_DIEM_POLICY_UPDATED, tenantId, fields);
    return replaceSetting(this.model, { id: tenantId, tenantId, fields, employeeId, event }, this.versions);
  }
}

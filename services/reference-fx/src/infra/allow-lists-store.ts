// The companies' allow-lists: one document per (tenant, list), its id `<tenantId>:<kind>`; every read and
// write filters by that `_id` and the tenant (the `tenantScoped` plugin refuses anything else,
// docs/decisions/0081). The only way to the model (0082). A company that never wrote a list has no document: its market's defaults apply.
// A write raises the internal `allow-list.updated` event in the same atomic update (single-document
// outbox), so the contexts that refuse disabled countries and currencies can keep a copy.
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
import type { AllowListKind } from '../domain/allow-lists';

/** Routing key `reference-fx.allow-list.updated`; data `{ kind, codes }` (the list as stored). */
export const ALLOW_LIST_UPDATED = 'allow-list.updated';

export interface AllowListDoc extends OutboxFields {
  _id: string;
  tenantId: string;
  kind: AllowListKind;
  codes: string[];
  editedAt: Date;
  editedByEmployeeId: string;
}

export const ALLOW_LISTS_COLLECTION = 'allow_lists';

function allowListModel(conn: Connection): Model<AllowListDoc> {
  if (conn.models.AllowList) return conn.models.AllowList as Model<AllowListDoc>;
  const schema = new Schema<AllowListDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      kind: { type: String, required: true, enum: ['countries', 'currencies'] },
      codes: { type: [String], default: [] },
      editedAt: { type: Date, required: true },
      editedByEmployeeId: { type: String, required: true },
      ...outboxSchemaFields,
    },
    { collection: ALLOW_LISTS_COLLECTION, versionKey: false },
  );
  schema.index({ tenantId: 1, kind: 1 }, { unique: true });
  schema.plugin(tenantScoped);
  return conn.model<AllowListDoc>('AllowList', schema);
}

const idOf = (tenantId: TenantId, kind: AllowListKind) => `${tenantId}:${kind}`;

export class AllowListsStore {
  private readonly model: Model<AllowListDoc>;

  constructor(
    conn: Connection,
    /** With the versions, a write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
    private readonly versions?: CollectionVersions,
  ) {
    this.model = allowListModel(conn);
  }

  async get(tenantId: TenantId, kind: AllowListKind): Promise<AllowListDoc | null> {
    return this.model.findOne({ _id: idOf(tenantId, kind), tenantId }).lean<AllowListDoc>();
  }

  /** Replaces the list (last write wins: the list is one value, so there is nothing to merge). */
  async put(tenantId: TenantId, kind: AllowListKind, codes: string[], employeeId: string): Promise<AllowListDoc> {
    const event = raiseEvent('reference-fx', ALLOW_LIST_UPDATED, tenantId, { kind, codes });
    const write = { id: idOf(tenantId, kind), tenantId, fields: { kind, codes }, employeeId, event };
    return replaceSetting(this.model, write, this.versions);
  }
}

// The companies' allow-lists: one document per (tenant, list), its id `<tenantId>:<kind>`, so every
// read and write is by `_id` (the one filter FerretDB pushes down, docs/decisions/0002) and the tenant
// is checked on the result. A company that never wrote a list has no document: its market's defaults apply.
// A write raises the internal `allow-list.updated` event in the same atomic update (single-document
// outbox), so the contexts that refuse disabled countries and currencies can keep a copy.
import { Schema, type Connection, type Model } from 'mongoose';
import { outboxSchemaFields, outboxUpdate, raiseEvent, type OutboxFields } from '@travel/platform';
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

export function allowListModel(conn: Connection): Model<AllowListDoc> {
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
  return conn.model<AllowListDoc>('AllowList', schema);
}

const idOf = (tenantId: string, kind: AllowListKind) => `${tenantId}:${kind}`;

export class AllowListsStore {
  constructor(
    private readonly model: Model<AllowListDoc>,
    private readonly nudgeOutbox: () => void = () => undefined,
  ) {}

  async get(tenantId: string, kind: AllowListKind): Promise<AllowListDoc | null> {
    const doc = await this.model.findOne({ _id: idOf(tenantId, kind) }).lean<AllowListDoc>();
    return doc && doc.tenantId === tenantId ? doc : null;
  }

  /** Replaces the list (last write wins: the list is one value, so there is nothing to merge). */
  async put(tenantId: string, kind: AllowListKind, codes: string[], employeeId: string): Promise<AllowListDoc> {
    const event = raiseEvent('reference-fx', ALLOW_LIST_UPDATED, tenantId, { kind, codes });
    const update = outboxUpdate(
      { $set: { tenantId, kind, codes, editedAt: new Date(), editedByEmployeeId: employeeId } },
      event,
    );
    // No projection here: FerretDB does not implement `fields` on findAndModify (the outbox comes back too).
    const doc = await this.model
      .findOneAndUpdate({ _id: idOf(tenantId, kind) }, update, { upsert: true, new: true })
      .lean<AllowListDoc>();
    this.nudgeOutbox();
    return doc!;
  }
}

// A company setting (reference-fx's allow-lists and per-diem policy, entries' journal accounts and expense
// policy) is one document per tenant and kind, replaced whole: last write wins, there is nothing to merge.
// Its event, if it has one, goes into the same atomic update (single-document outbox), and the relay is
// nudged (docs/decisions/0170).
import type { Model } from 'mongoose';
import type { OutboxEvent } from '../messaging/events';
import { outboxUpdate } from '../messaging/outbox';
import { nudgeRelayOf } from '../messaging/outbox-nudge';
import type { CollectionVersions } from './collection-versions';
import type { TenantId } from './tenant-guard';

export interface SettingWrite {
  /** The document's id (the tenant's, or `<tenant>:<kind>`). */
  id: string;
  tenantId: TenantId;
  /** The setting's own fields, stored as given. */
  fields: Record<string, unknown>;
  employeeId: string;
  /** Announced with the write; a setting only its own service reads (the expense policy) has none. */
  event?: OutboxEvent;
}

export async function replaceSetting<T>(
  model: Model<T>,
  write: SettingWrite,
  /** With the versions, the write bumps the tenant's version of the collection, for conditional GETs (0155, 0159). */
  versions?: CollectionVersions,
): Promise<T> {
  const { id, tenantId, fields, employeeId, event } = write;
  const set = { $set: { tenantId, ...fields, editedAt: new Date(), editedByEmployeeId: employeeId } };
  const update = event ? outboxUpdate(set, event) : set;
  // No projection here: FerretDB does not implement `fields` on findAndModify (the outbox comes back too).
  const replace = () => model.findOneAndUpdate({ _id: id, tenantId }, update, { upsert: true, new: true }).lean<T>();
  const doc = await (versions ? versions.around(tenantId, model.collection.collectionName, replace) : replace());
  if (event) nudgeRelayOf(model.db, { collection: model.collection.collectionName, id });
  return doc!;
}
